import type { ReactNode } from 'react';
import './globals.css';

export const metadata = {
  title: 'Arcade Gym',
  description: 'HTML5 and WebGL games for reinforcement learning, in virtual time, with verified leaderboards.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </head>
      <body>
        <header className="site">
          <a className="brand" href="/">
            Arcade Gym
          </a>
          <a href="/games">Games</a>
          <a href="/leaderboard">Leaderboard</a>
          <a href="/watch">Watch</a>
          <a href="/replay">Replay</a>
          <a href="/train/snake">Train</a>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
