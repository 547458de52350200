'use client';

import { useEffect, useRef, useState, type CSSProperties, type HTMLAttributes, type RefObject } from 'react';

type StageProps = Omit<HTMLAttributes<HTMLDivElement>, 'children'> & {
  width: number;
  height: number;
  title: string;
  iframeRef: RefObject<HTMLIFrameElement | null>;
  stageRef?: RefObject<HTMLDivElement | null>;
  iframeTabIndex?: number;
  iframeStyle?: CSSProperties;
};

/**
 * The game's iframe, whose viewport is exactly the manifest's (the headless gym's page size): a
 * game with responsive CSS lays out for that size, so its frames can match the gym's. Where the
 * column is narrower, the iframe is scaled down as a picture (a CSS transform), which leaves its
 * viewport and device scale alone. The stage box is the scaled size, so pointer positions map to
 * game coordinates by the stage's rectangle. Its border is drawn outside the box, taking no space.
 */
export function GameStage({ width, height, title, iframeRef, stageRef, iframeTabIndex, iframeStyle, style, ...stage }: StageProps) {
  const column = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  useEffect(() => {
    const el = column.current!;
    const measure = () => setScale(el.clientWidth > 0 ? Math.min(1, el.clientWidth / width) : 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [width]);
  return (
    <div ref={column} style={{ width: '100%', maxWidth: width }}>
      <div
        ref={stageRef}
        {...stage}
        style={{
          ...style,
          position: 'relative',
          width: width * scale,
          height: height * scale,
          overflow: 'hidden',
          borderRadius: 10,
          boxShadow: '0 0 0 1px var(--border)',
          background: 'var(--panel)',
        }}
      >
        <iframe
          ref={iframeRef}
          title={title}
          width={width}
          height={height}
          tabIndex={iframeTabIndex}
          style={{
            ...iframeStyle,
            border: 0,
            display: 'block',
            width,
            height,
            transform: scale === 1 ? undefined : `scale(${scale})`,
            transformOrigin: '0 0',
          }}
        />
      </div>
    </div>
  );
}
