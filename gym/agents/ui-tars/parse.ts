/**
 * Parses a UI-TARS-style reply ("Thought: … Action: click(start_box='(x,y)')") into actions
 * in the model's own coordinates. Models are loose with the format, so this accepts what
 * they commonly write (point and box spellings of several UI-TARS versions, either quote,
 * unquoted values, positional arguments, code fences, several actions) and rejects the rest
 * with a message saying what was wrong: the agent turns that into a `wait` and tells the model.
 */

export type Point = [number, number];
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export type UiTarsAction =
  | { type: 'click'; point: Point; button: 'left' | 'right'; double: boolean }
  | { type: 'drag'; from: Point; to: Point }
  | { type: 'type'; content: string }
  | { type: 'hotkey'; key: string }
  | { type: 'scroll'; point: Point | null; direction: ScrollDirection }
  | { type: 'wait' }
  | { type: 'finished'; content: string | null }
  | { type: 'call_user' };

export interface ParsedReply {
  thought: string | null;
  actions: UiTarsAction[];
}

export class ReplyParseError extends Error {
  override name = 'ReplyParseError';
}

interface Call {
  name: string;
  named: Record<string, string>;
  positional: string[];
}

/** Action names, with the aliases UI-TARS versions use, mapped to what we do with them. */
const ALIASES: Record<string, string> = {
  click: 'click',
  left_single: 'click',
  left_click: 'click',
  left_double: 'double',
  double_click: 'double',
  right_single: 'right',
  right_click: 'right',
  drag: 'drag',
  select: 'drag',
  type: 'type',
  hotkey: 'hotkey',
  press: 'hotkey',
  key: 'hotkey',
  scroll: 'scroll',
  wait: 'wait',
  finished: 'finished',
  finish: 'finished',
  call_user: 'call_user',
};

export function parseReply(text: string): ParsedReply {
  const clean = text.replace(/```[a-zA-Z]*\n?/g, '').replace(/\r\n?/g, '\n');
  const thought = /(?:^|\n)\s*(?:Thought|Reflection)\s*:\s*([\s\S]*?)(?=\n\s*Action\s*:|$)/i.exec(clean)?.[1].trim() || null;
  const marker = [...clean.matchAll(/(?:^|\n)\s*\**Action\**\s*:/gi)].pop();
  const body = marker ? clean.slice(marker.index! + marker[0].length) : clean;
  const calls = findCalls(body);
  if (calls.length === 0) {
    const excerpt = body.trim().slice(0, 80);
    throw new ReplyParseError(
      marker ? `no action call after "Action:" (got "${excerpt}")` : `no "Action:" line and no action call in the reply (got "${clean.trim().slice(0, 80)}")`,
    );
  }
  const actions: UiTarsAction[] = [];
  for (const call of calls) {
    const a = toAction(call);
    actions.push(a);
    // Nothing after finished() is meant to happen.
    if (a.type === 'finished') break;
  }
  return { thought, actions };
}

/** Every `name(args)` whose name is a known action, in order; quotes may hide parentheses. */
function findCalls(body: string): Call[] {
  const calls: Call[] = [];
  const head = /([A-Za-z_]+)\s*\(/g;
  let m: RegExpExecArray | null;
  while ((m = head.exec(body))) {
    const name = m[1].toLowerCase();
    if (!(name in ALIASES)) {
      // An unknown call where an action should be: say so rather than skip it silently.
      if (calls.length === 0 && /^\s*$/.test(body.slice(0, m.index).replace(/[`*]/g, '')))
        throw new ReplyParseError(`unknown action "${m[1]}" (known: ${Object.keys(ALIASES).join(', ')})`);
      continue;
    }
    const { args, end } = scanArgs(body, m.index + m[0].length);
    calls.push({ name, ...args });
    head.lastIndex = end;
  }
  return calls;
}

/** Reads `key='value', key2=value2, 'positional'` up to the call's closing parenthesis. */
function scanArgs(s: string, start: number): { args: Omit<Call, 'name'>; end: number } {
  const named: Record<string, string> = {};
  const positional: string[] = [];
  let i = start;
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= s.length) throw new ReplyParseError(`unclosed "(" in ${JSON.stringify(s.slice(Math.max(0, start - 20), start + 60))}`);
    if (s[i] === ')') return { args: { named, positional }, end: i + 1 };
    let key: string | null = null;
    const k = /^([A-Za-z_]+)\s*=\s*/.exec(s.slice(i));
    if (k) {
      key = k[1].toLowerCase();
      i += k[0].length;
    }
    let value: string;
    if (s[i] === "'" || s[i] === '"') {
      ({ value, end: i } = scanQuoted(s, i));
    } else {
      // Unquoted: up to the next comma or closing parenthesis outside brackets.
      let depth = 0;
      const from = i;
      while (i < s.length && !(depth === 0 && (s[i] === ',' || s[i] === ')'))) {
        if ('([<'.includes(s[i])) depth++;
        else if (')]>'.includes(s[i])) depth--;
        i++;
      }
      value = s.slice(from, i).trim();
    }
    if (key) named[key] = value;
    else positional.push(value);
    skipSpace();
    if (s[i] === ',') i++;
  }
}

/**
 * A quoted value with backslash escapes. A quote only closes it when followed by `,` or `)`,
 * so `type(content='it's')` keeps its apostrophe.
 */
function scanQuoted(s: string, start: number): { value: string; end: number } {
  const q = s[start];
  let out = '';
  for (let i = start + 1; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const n = s[++i];
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      continue;
    }
    if (c === q && /^\s*[,)]/.test(s.slice(i + 1))) return { value: out, end: i + 1 };
    out += c;
  }
  throw new ReplyParseError(`unterminated ${q}quoted${q} value starting ${JSON.stringify(s.slice(start, start + 40))}`);
}

function arg(call: Call, names: string[], positionalIndex = 0): string | undefined {
  for (const n of names) if (call.named[n] !== undefined) return call.named[n];
  return call.positional[positionalIndex];
}

/** '(x,y)', '<|box_start|>(x,y)<|box_end|>', '<point>x y</point>', '[x1,y1,x2,y2]' (a box: its centre). */
export function parsePoint(raw: string, what: string): Point {
  const nums = (raw.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  if (nums.length === 2) return [nums[0], nums[1]];
  if (nums.length === 4) return [(nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2];
  throw new ReplyParseError(`${what} must be a point "(x,y)" or a box "(x1,y1,x2,y2)", got ${JSON.stringify(raw)}`);
}

function required(call: Call, names: string[], positionalIndex = 0): string {
  const v = arg(call, names, positionalIndex);
  if (v === undefined || v === '') throw new ReplyParseError(`${call.name}() needs ${names[0]}=…`);
  return v;
}

const POINT = ['start_box', 'point', 'start_point', 'box'];

function toAction(call: Call): UiTarsAction {
  switch (ALIASES[call.name]) {
    case 'click':
    case 'double':
    case 'right':
      return {
        type: 'click',
        point: parsePoint(required(call, POINT), `${call.name} start_box`),
        button: ALIASES[call.name] === 'right' ? 'right' : 'left',
        double: ALIASES[call.name] === 'double',
      };
    case 'drag':
      return {
        type: 'drag',
        from: parsePoint(required(call, POINT), 'drag start_box'),
        to: parsePoint(required(call, ['end_box', 'end_point'], 1), 'drag end_box'),
      };
    case 'type':
      return { type: 'type', content: arg(call, ['content', 'text']) ?? '' };
    case 'hotkey': {
      const key = required(call, ['key', 'hotkey', 'keys']).trim();
      return { type: 'hotkey', key };
    }
    case 'scroll': {
      const dir = (arg(call, ['direction'], 1) ?? '').trim().toLowerCase();
      if (!['up', 'down', 'left', 'right'].includes(dir))
        throw new ReplyParseError(`scroll direction must be up, down, left or right, got ${JSON.stringify(dir)}`);
      const at = arg(call, POINT);
      return { type: 'scroll', point: at ? parsePoint(at, 'scroll start_box') : null, direction: dir as ScrollDirection };
    }
    case 'wait':
      return { type: 'wait' };
    case 'finished':
      return { type: 'finished', content: arg(call, ['content']) ?? null };
    default:
      return { type: 'call_user' };
  }
}
