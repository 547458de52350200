import { ArcadeGymError } from '../gym/errors';
import { parseCommandArgs, UsageError, type Command } from './command';
import { gamesCommand } from './commands/games';
import { evalCommand } from './commands/eval';
import { serveCommand } from './commands/serve';
import { addGameCommand } from './commands/add-game';
import { tokenCommand } from './commands/token';
import { submitCommand } from './commands/submit';
import { trainCommand } from './commands/train';
import { browserHostCommand } from './commands/browser-host';
import { workerCommand } from './commands/worker';
import { playersCommand } from './commands/players';

/** Every command, in the order `arcade-gym --help` lists them. Add new commands here. */
const COMMANDS: Command[] = [
  gamesCommand,
  evalCommand,
  trainCommand,
  addGameCommand,
  serveCommand,
  browserHostCommand,
  workerCommand,
  tokenCommand,
  playersCommand,
  submitCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `arcade-gym: browser games for reinforcement learning, in virtual time

Usage: arcade-gym <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "arcade-gym <command> --help" for a command's options.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name ? 0 : 1;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`${cmd.summary}\n\nUsage: ${cmd.usage}`);
    return 0;
  }
  try {
    await cmd.run(parseCommandArgs(cmd, rest));
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ArcadeGymError) {
      console.error(`arcade-gym ${cmd.name}: ${e.message}`);
      return e instanceof UsageError ? e.exitCode : 2;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
