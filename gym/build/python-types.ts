import path from 'node:path';
import { ROOT } from '../paths';
import { openApiDocument } from '../server/openapi';

/**
 * The Python package's types of the HTTP API (clients/python/arcade_gym/api_types.py): one
 * TypedDict (or alias) per schema of the OpenAPI document, generated from it, so the Python
 * client's bodies are the server's. Written by `npm run build:python-types`; a test fails when
 * the file no longer matches the document (a field added on the server cannot go missing in
 * Python) and another checks real answers against the Python types.
 */
export const PYTHON_TYPES_PATH = path.join(ROOT, 'clients', 'python', 'arcade_gym', 'api_types.py');

type Schema = Record<string, unknown> | boolean;

const PY_KEYWORDS = new Set([
  'from',
  'import',
  'class',
  'def',
  'global',
  'in',
  'is',
  'lambda',
  'not',
  'or',
  'and',
  'pass',
  'return',
  'with',
  'yield',
  'None',
  'True',
  'False',
]);
const isIdentifier = (k: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !PY_KEYWORDS.has(k);
const pascal = (k: string) => k.replace(/(^|[^A-Za-z0-9])([a-z])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');

class Emitter {
  readonly blocks: string[] = [];
  /** Module-level aliases go last: by then every class they name exists (annotations are lazy). */
  readonly aliases: string[] = [];
  /** TypedDicts whose objects may carry keys beyond theirs (JSON Schema additionalProperties). */
  readonly open: string[] = [];
  /** Structurally identical inline objects share one class. */
  private readonly byShape = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(private readonly components: Record<string, Schema>) {
    for (const name of Object.keys(components)) this.used.add(name);
  }

  private fresh(hint: string): string {
    let name = hint;
    for (let i = 2; this.used.has(name); i++) name = `${hint}${i}`;
    this.used.add(name);
    return name;
  }

  /** A Python type expression for `s`; inline objects become classes named after `hint`. */
  type(s: Schema, hint: string): string {
    if (s === true || s === false || !s) return 'Any';
    const ref = s.$ref as string | undefined;
    if (ref) return ref.split('/').at(-1)!;
    if ('const' in s) return `Literal[${pyLiteral(s.const)}]`;
    if (Array.isArray(s.enum)) return `Literal[${s.enum.map(pyLiteral).join(', ')}]`;
    const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (alts) return this.union(alts.map((a, i) => this.type(a, alts.length > 1 ? `${hint}${i + 1}` : hint)));
    switch (s.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array': {
        if (Array.isArray(s.prefixItems)) return `Tuple[${(s.prefixItems as Schema[]).map((p) => this.type(p, `${hint}Item`)).join(', ')}]`;
        return `List[${s.items === undefined || typeof s.items === 'boolean' ? 'Any' : this.type(s.items as Schema, `${hint}Item`)}]`;
      }
      case 'object': {
        const props = s.properties as Record<string, Schema> | undefined;
        if (!props) {
          const extra = s.additionalProperties;
          return `Dict[str, ${extra && typeof extra === 'object' ? this.type(extra as Schema, `${hint}Value`) : 'Any'}]`;
        }
        return this.object(s, props, hint);
      }
      default:
        return 'Any';
    }
  }

  private union(types: string[]): string {
    const unique = [...new Set(types)];
    if (unique.includes('Any')) return 'Any';
    const rest = unique.filter((t) => t !== 'None');
    const inner = rest.length === 1 ? rest[0] : `Union[${rest.join(', ')}]`;
    return unique.includes('None') ? `Optional[${inner}]` : inner;
  }

  /** Emits a TypedDict for an object schema (once per shape) and returns its name. */
  object(s: Record<string, unknown>, props: Record<string, Schema>, hint: string, name?: string): string {
    const shape = JSON.stringify(s);
    const known = this.byShape.get(shape);
    if (known && !name) return known;
    const cls = name ?? this.fresh(hint);
    this.byShape.set(shape, cls);
    const required = new Set((s.required as string[] | undefined) ?? []);
    const fields = Object.entries(props).map(([k, v]) => ({ key: k, type: this.type(v, `${cls}${pascal(k)}`), required: required.has(k), doc: docOf(v) }));
    const doc = docOf(s);
    const open = s.additionalProperties !== false ? ' Other keys may appear.' : '';
    if (open) this.open.push(cls);
    const lines: string[] = [];
    if (fields.every((f) => isIdentifier(f.key))) {
      const req = fields.filter((f) => f.required);
      const opt = fields.filter((f) => !f.required);
      const body = (fs: typeof fields) => (fs.length ? fs.flatMap((f) => [...(f.doc ? [`    # ${f.doc}`] : []), `    ${f.key}: ${f.type}`]) : ['    pass']);
      if (req.length && opt.length) {
        lines.push(`class _${cls}Required(TypedDict):`, ...body(req), '', '');
        lines.push(`class ${cls}(_${cls}Required, total=False):`);
      } else lines.push(`class ${cls}(TypedDict${req.length ? '' : ', total=False'}):`);
      if (doc || open) lines.push(`    """${(doc ?? '').replace(/[\\"]/g, (c) => `\\${c}`)}${open}"""`, '');
      lines.push(...body(opt.length && req.length ? opt : fields));
    } else {
      // A key Python cannot name (a keyword): the functional form, every key optional.
      lines.push(`${cls} = TypedDict(`, `    ${JSON.stringify(cls)},`, '    {');
      // Evaluated at once: the types as strings, resolved later like annotations.
      for (const f of fields) lines.push(`        ${JSON.stringify(f.key)}: ${JSON.stringify(f.type)},`);
      lines.push('    },', '    total=False,', ')');
    }
    this.blocks.push(lines.join('\n'));
    return cls;
  }

  component(name: string): void {
    const s = this.components[name];
    if (typeof s === 'object' && s.type === 'object' && s.properties) {
      this.object(s, s.properties as Record<string, Schema>, name, name);
      return;
    }
    const expr = this.type(s, name);
    const doc = typeof s === 'object' ? docOf(s) : undefined;
    this.aliases.push(`${doc ? `# ${doc}\n` : ''}${name} = ${expr}`);
  }
}

function pyLiteral(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null) return 'None';
  return JSON.stringify(v);
}

function docOf(s: Schema): string | undefined {
  if (typeof s !== 'object') return undefined;
  const d = s.description;
  return typeof d === 'string' ? d.replace(/\s+/g, ' ').trim() : undefined;
}

export function pythonApiTypes(): string {
  const doc = openApiDocument() as { info: { version: string }; components: { schemas: Record<string, Schema> } };
  const components = doc.components.schemas;
  const emitter = new Emitter(components);
  for (const name of Object.keys(components)) emitter.component(name);
  const names = Object.keys(components);
  return [
    `"""The HTTP API's bodies as Python types, generated from its OpenAPI document (API version ${doc.info.version}).`,
    '',
    'Written by `npm run build:python-types` from gym/server/openapi.ts: do not edit. Each schema of',
    'the document is a TypedDict (objects) or an alias (unions), under the same name.',
    '"""',
    '',
    '# ruff: noqa',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union',
    '',
    `API_VERSION = ${JSON.stringify(doc.info.version)}`,
    '',
    `__all__ = [${names.map((n) => JSON.stringify(n)).join(', ')}, "OPEN_TYPES"]`,
    '',
    '',
    emitter.blocks.join('\n\n\n'),
    '',
    '',
    emitter.aliases.join('\n\n'),
    '',
    "# The TypedDicts whose objects may hold keys beyond those named (e.g. a game's own state fields).",
    `OPEN_TYPES = frozenset({${emitter.open.map((n) => JSON.stringify(n)).join(', ')}})`,
    '',
  ].join('\n');
}
