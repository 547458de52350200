import { describe, expect, it } from 'vitest';
import { parseReply, ReplyParseError, type UiTarsAction } from './parse';
import { imageSize, keyName, toGuiActions, type MappingSpace } from './to-gui-action';

const one = (text: string): UiTarsAction => {
  const { actions } = parseReply(text);
  expect(actions).toHaveLength(1);
  return actions[0];
};
const fails = (text: string, message: RegExp) => {
  expect(() => parseReply(text)).toThrow(ReplyParseError);
  expect(() => parseReply(text)).toThrow(message);
};

describe('parseReply: every action form', () => {
  it('reads the thought and a click', () => {
    const r = parseReply("Thought: The mole in the middle is up.\nAction: click(start_box='(235,512)')");
    expect(r.thought).toBe('The mole in the middle is up.');
    expect(r.actions).toEqual([{ type: 'click', point: [235, 512], button: 'left', double: false }]);
  });

  it('accepts the point spellings of several UI-TARS versions', () => {
    const point = (text: string) => (one(text) as { point: [number, number] }).point;
    expect(point("Action: click(start_box='<|box_start|>(100,200)<|box_end|>')")).toEqual([100, 200]);
    expect(point("Action: click(start_box='[100, 200, 300, 400]')")).toEqual([200, 300]);
    expect(point("Action: click(start_box='(100,200,300,400)')")).toEqual([200, 300]);
    expect(point("Action: click(point='<point>100 200</point>')")).toEqual([100, 200]);
    expect(point('Action: click(start_box=(10,20))')).toEqual([10, 20]);
    expect(point("Action: click('(10.5,20)')")).toEqual([10.5, 20]);
    expect(point('Action: left_single(start_box="(7,8)")')).toEqual([7, 8]);
  });

  it('tolerates odd whitespace, quotes, case, fences, CRLF and bold markers', () => {
    expect(one('  Action :   CLICK (  start_box = " ( 235 , 512 ) "  )  ')).toMatchObject({ type: 'click', point: [235, 512] });
    expect(one('```\r\nThought: x\r\nAction: wait()\r\n```')).toEqual({ type: 'wait' });
    expect(one("**Thought:** hmm\n**Action:** hotkey(key='space')")).toEqual({ type: 'hotkey', key: 'space' });
    expect(one("Thought: a\nAction_Summary: press up\nAction: hotkey(key='up')")).toEqual({ type: 'hotkey', key: 'up' });
    // Without "Action:", a bare call is still understood.
    expect(one("scroll(start_box='(1,2)', direction='up')")).toEqual({ type: 'scroll', point: [1, 2], direction: 'up' });
  });

  it('reads double and right clicks, drags and selections', () => {
    expect(one("Action: left_double(start_box='(1,2)')")).toEqual({ type: 'click', point: [1, 2], button: 'left', double: true });
    expect(one("Action: right_single(start_box='(1,2)')")).toEqual({ type: 'click', point: [1, 2], button: 'right', double: false });
    expect(one("Action: drag(start_box='(10,20)', end_box='(30,40)')")).toEqual({ type: 'drag', from: [10, 20], to: [30, 40] });
    expect(one("Action: select(start_box='(10,20)', end_box='(30,40)')")).toEqual({ type: 'drag', from: [10, 20], to: [30, 40] });
    expect(one("Action: drag(start_point='<point>1 2</point>', end_point='<point>3 4</point>')")).toEqual({ type: 'drag', from: [1, 2], to: [3, 4] });
  });

  it('reads typed text with escapes, unescaped apostrophes, commas and parentheses', () => {
    expect(one("Action: type(content='it\\'s done\\n')")).toEqual({ type: 'type', content: "it's done\n" });
    expect(one("Action: type(content='it's')")).toEqual({ type: 'type', content: "it's" });
    expect(one("Action: type(content='a, b) c')")).toEqual({ type: 'type', content: 'a, b) c' });
    expect(one('Action: type(content="say \\"hi\\"")')).toEqual({ type: 'type', content: 'say "hi"' });
    expect(one("Action: type(content='')")).toEqual({ type: 'type', content: '' });
  });

  it('reads hotkeys, scrolls, wait, finished and call_user', () => {
    expect(one("Action: hotkey(key='Enter')")).toEqual({ type: 'hotkey', key: 'Enter' });
    expect(one("Action: press(key='a')")).toEqual({ type: 'hotkey', key: 'a' });
    expect(one("Action: scroll(start_box='(500,500)', direction='DOWN')")).toEqual({ type: 'scroll', point: [500, 500], direction: 'down' });
    expect(one("Action: scroll(direction='left')")).toEqual({ type: 'scroll', point: null, direction: 'left' });
    expect(one('Action: wait()')).toEqual({ type: 'wait' });
    expect(one('Action: finished()')).toEqual({ type: 'finished', content: null });
    expect(one("Action: finished(content='Reached 100 points')")).toEqual({ type: 'finished', content: 'Reached 100 points' });
    expect(one('Action: call_user()')).toEqual({ type: 'call_user' });
  });

  it('reads several actions in order and nothing after finished()', () => {
    const r = parseReply("Thought: two moves\nAction: click(start_box='(1,2)')\n\nhotkey(key='up')\nfinished()\nclick(start_box='(3,4)')");
    expect(r.actions.map((a) => a.type)).toEqual(['click', 'hotkey', 'finished']);
  });
});

describe('parseReply: malformed replies', () => {
  it('says what is wrong', () => {
    fails('', /no "Action:" line and no action call/);
    fails('I think I should click the mole.', /no "Action:" line/);
    fails('Thought: hmm\nAction: ', /no action call after "Action:"/);
    fails("Action: tap(start_box='(1,2)')", /unknown action "tap"/);
    fails("Action: click(start_box='(1,2)'", /unterminated|unclosed/);
    fails('Action: click(start_box=(1,2)', /unclosed "\("/);
    fails("Action: click(start_box='(1,2)", /unterminated/);
    fails('Action: click()', /click\(\) needs start_box/);
    fails("Action: click(start_box='(1)')", /must be a point/);
    fails("Action: click(start_box='middle')", /must be a point/);
    fails("Action: drag(start_box='(1,2)')", /drag\(\) needs end_box/);
    fails("Action: scroll(start_box='(1,2)')", /scroll direction must be/);
    fails("Action: scroll(start_box='(1,2)', direction='sideways')", /scroll direction must be/);
    fails('Action: hotkey()', /hotkey\(\) needs key/);
  });
});

describe('toGuiActions: model coordinates to game coordinates', () => {
  const space: MappingSpace = { canvas: { width: 400, height: 300 }, image: { width: 400, height: 300 }, mode: 'relative-1000', scrollPx: 120 };
  const map = (text: string, s = space) => parseReply(text).actions.flatMap((a) => toGuiActions(a, s));

  it('maps 0–1000 relative points to the canvas size', () => {
    expect(map("Action: click(start_box='(500,500)')")).toEqual([{ type: 'click', x: 200, y: 150 }]);
    expect(map("Action: click(start_box='(0,1000)')")).toEqual([{ type: 'click', x: 0, y: 300 }]);
    expect(map("Action: right_single(start_box='(250,100)')")).toEqual([{ type: 'click', x: 100, y: 30, button: 'right' }]);
    expect(map("Action: drag(start_box='(100,100)', end_box='(900,900)')")).toEqual([{ type: 'drag', from: [40, 30], to: [360, 270] }]);
  });

  it('maps screenshot pixels by the image size the model saw', () => {
    const pixels: MappingSpace = { ...space, mode: 'pixels', image: { width: 800, height: 600 } };
    expect(map("Action: click(start_box='(400,300)')", pixels)).toEqual([{ type: 'click', x: 200, y: 150 }]);
  });

  it('refuses points outside the screenshot, with a hint about the convention', () => {
    expect(() => map("Action: click(start_box='(1500,20)')")).toThrow(/outside the screenshot.*coordinates: "pixels"/);
  });

  it('turns hotkeys into keys, typed text ending in \\n into text then Enter, scrolls into wheel deltas', () => {
    expect(map("Action: hotkey(key='up')")).toEqual([{ type: 'key', key: 'ArrowUp' }]);
    expect(map("Action: hotkey(key='SPACE')")).toEqual([{ type: 'key', key: ' ' }]);
    expect(map("Action: type(content='ab\\n')")).toEqual([
      { type: 'type', text: 'ab' },
      { type: 'key', key: 'Enter' },
    ]);
    expect(map("Action: type(content='ab')")).toEqual([{ type: 'type', text: 'ab' }]);
    expect(map("Action: scroll(start_box='(500,500)', direction='down')")).toEqual([{ type: 'scroll', x: 200, y: 150, dx: 0, dy: 120 }]);
    expect(map("Action: scroll(direction='left')")).toEqual([{ type: 'scroll', x: 200, y: 150, dx: -120, dy: 0 }]);
    expect(map('Action: finished()')).toEqual([]);
  });

  it('knows key names and refuses combinations', () => {
    expect(['enter', 'Return', 'esc', 'ArrowLeft', 'left', 'a', 'Z', '7', 'f5', '+', ' '].map(keyName)).toEqual([
      'Enter',
      'Enter',
      'Escape',
      'ArrowLeft',
      'ArrowLeft',
      'a',
      'Z',
      '7',
      'F5',
      '+',
      ' ',
    ]);
    expect(() => keyName('ctrl c')).toThrow(/combinations with ctrl/);
    expect(() => keyName('ctrl+shift+t')).toThrow(/combinations/);
    expect(() => keyName('shift')).toThrow(/modifier alone/);
    expect(() => keyName('jump')).toThrow(/not a key name/);
  });

  it('reads PNG and JPEG sizes', () => {
    const png = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    // SOI, an APP0 segment, then SOF0 with height 300 and width 400.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03]);
    expect(imageSize(jpeg)).toEqual({ width: 400, height: 300 });
    expect(imageSize(Buffer.from('GIF89a'))).toBeNull();
  });
});
