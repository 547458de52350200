import * as fakeIndexedDb from 'fake-indexeddb';

/**
 * Storage is part of the episode's world: each page load of the runtime starts with empty,
 * in-memory `localStorage`, `sessionStorage`, `document.cookie` and IndexedDB, and nothing a
 * game writes reaches the browser's real storage. A game that saves its board would otherwise
 * carry it from one episode into the next whenever two episodes share a tab or a browser
 * context (the site's player does both), and the same record would replay differently.
 */

type StorageItems = Map<string, string>;

/** The items behind each storage proxy; methods are called with `this` = the proxy. */
const itemsOf = new WeakMap<object, StorageItems>();

function items(self: unknown): StorageItems {
  const found = itemsOf.get(self as object);
  if (!found) throw new TypeError('Illegal invocation');
  return found;
}

/** The Storage interface, in memory; insertion order is the key order, the same in every browser. */
class MemoryStorage {
  get length(): number {
    return items(this).size;
  }
  key(index: number): string | null {
    const i = Number(index);
    if (!Number.isInteger(i) || i < 0) return null;
    let n = 0;
    for (const k of items(this).keys()) if (n++ === i) return k;
    return null;
  }
  getItem(key: string): string | null {
    return items(this).get(String(key)) ?? null;
  }
  setItem(key: string, value: string): void {
    items(this).set(String(key), String(value));
  }
  removeItem(key: string): void {
    items(this).delete(String(key));
  }
  clear(): void {
    items(this).clear();
  }
}

/**
 * An empty storage object that behaves like `localStorage`: methods, and items as properties
 * (`storage.best = 3`, `storage.best`, `Object.keys(storage)`, `delete storage.best`).
 * Like the real one (WebIDL's named property visibility), reading an item named like a method
 * or any other inherited property gives the inherited property; getItem gives the item.
 */
export function createMemoryStorage(storageProto: object | null): Storage {
  if (storageProto) Object.setPrototypeOf(MemoryStorage.prototype, storageProto);
  const map: StorageItems = new Map();
  const target = Object.create(MemoryStorage.prototype) as object;
  const isItem = (p: string | symbol): p is string => typeof p === 'string' && !(p in target) && map.has(p);
  const proxy: object = new Proxy(target, {
    get: (t, p) => (isItem(p) ? map.get(p) : Reflect.get(t, p, proxy)),
    set: (t, p, v): boolean => {
      if (typeof p === 'symbol') return Reflect.set(t, p, v, proxy);
      map.set(p, String(v));
      return true;
    },
    has: (t, p) => isItem(p) || Reflect.has(t, p),
    deleteProperty: (t, p) => (isItem(p) ? map.delete(p) : Reflect.deleteProperty(t, p)),
    // Chromium lists every item as an own key, shadowed or not (JSON.stringify then reads the method and skips it).
    ownKeys: (t) => [...map.keys(), ...Reflect.ownKeys(t)],
    getOwnPropertyDescriptor: (t, p) =>
      typeof p === 'string' && map.has(p)
        ? { value: map.get(p), writable: true, enumerable: true, configurable: true }
        : Reflect.getOwnPropertyDescriptor(t, p),
    defineProperty: (t, p, desc) => {
      if (typeof p === 'symbol') return Reflect.defineProperty(t, p, desc);
      map.set(p, String(desc.value));
      return true;
    },
  });
  itemsOf.set(proxy, map);
  return proxy as unknown as Storage;
}

interface Cookie {
  value: string;
  /** Wall-clock expiry in (virtual) ms since the epoch; null for a session cookie. */
  expires: number | null;
}

/**
 * `document.cookie` over an in-memory jar. Name, value, `Max-Age` and `Expires` (against the
 * virtual wall clock) are honoured; one page has one path and one domain, so `Path`, `Domain`,
 * `Secure` and `SameSite` change nothing; `HttpOnly` cookies are refused, as browsers refuse
 * them from scripts.
 */
export class CookieJar {
  private readonly jar = new Map<string, Cookie>();

  constructor(private readonly wallNow: () => number) {}

  read(): string {
    const now = this.wallNow();
    const out: string[] = [];
    for (const [name, c] of this.jar) {
      if (c.expires !== null && c.expires <= now) this.jar.delete(name);
      else out.push(name === '' ? c.value : `${name}=${c.value}`);
    }
    return out.join('; ');
  }

  write(text: string): void {
    const [pair, ...attrs] = String(text).split(';');
    const eq = pair.indexOf('=');
    // A pair without "=" is a cookie with an empty name (RFC 6265 §5.2, as browsers do it).
    const name = eq < 0 ? '' : pair.slice(0, eq).trim();
    const value = (eq < 0 ? pair : pair.slice(eq + 1)).trim();
    let expires: number | null = null;
    let maxAge: number | null = null;
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
      const arg = i < 0 ? '' : attr.slice(i + 1).trim();
      if (key === 'httponly') return;
      if (key === 'max-age' && /^-?\d+$/.test(arg)) maxAge = Number(arg);
      if (key === 'expires') {
        const t = Date.parse(arg);
        if (Number.isFinite(t)) expires = t;
      }
    }
    // Max-Age wins over Expires.
    if (maxAge !== null) expires = this.wallNow() + maxAge * 1000;
    if (expires !== null && expires <= this.wallNow()) {
      this.jar.delete(name);
      return;
    }
    const old = this.jar.get(name);
    // Replacing a cookie keeps its place (its creation time), as browsers order them.
    if (old) Object.assign(old, { value, expires });
    else this.jar.set(name, { value, expires });
  }
}

/** The IndexedDB classes a page may name (`IDBKeyRange.only(…)`, `instanceof IDBRequest`): fake-indexeddb's, every one. */
const IDB_GLOBALS = Object.entries(fakeIndexedDb).filter(([name]) => name.startsWith('IDB'));

/**
 * Replaces the page's storage with empty in-memory storage. Must run before any game script.
 * IndexedDB is fake-indexeddb: its callbacks are scheduled through `scheduler.postTask` (or
 * `setTimeout` where there is no scheduler), which the virtual clock owns, so they run during
 * `advance` in the same order every time, where the browser's own IndexedDB answers on real time.
 */
export function installVirtualStorage(win: Window & typeof globalThis, wallNow: () => number): void {
  const storageProto = typeof win.Storage === 'function' ? win.Storage.prototype : null;
  const local = createMemoryStorage(storageProto);
  const session = createMemoryStorage(storageProto);
  const getter = (value: unknown): PropertyDescriptor => ({ get: () => value, configurable: true, enumerable: true });
  Object.defineProperty(win, 'localStorage', getter(local));
  Object.defineProperty(win, 'sessionStorage', getter(session));

  const jar = new CookieJar(wallNow);
  if (win.document) {
    Object.defineProperty(win.document, 'cookie', {
      get: () => jar.read(),
      set: (text: string) => jar.write(text),
      configurable: true,
      enumerable: true,
    });
  }
  // The async cookie API would reach the real jar; pages feature-test it and fall back to document.cookie.
  if ('cookieStore' in win) Object.defineProperty(win, 'cookieStore', { value: undefined, configurable: true, writable: true });

  Object.defineProperty(win, 'indexedDB', getter(new fakeIndexedDb.IDBFactory()));
  for (const [name, value] of IDB_GLOBALS) {
    Object.defineProperty(win, name, { value, configurable: true, writable: true, enumerable: false });
  }

  // `storage` events report other tabs' changes to the real storage, which this page no longer
  // uses; one registered first, at the window, stops them before any game listener.
  win.addEventListener('storage', (e) => e.stopImmediatePropagation(), true);
}
