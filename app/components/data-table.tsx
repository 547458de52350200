import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from 'react';

/** One column of a `DataTable`: its header and what each row shows in it. */
export interface Column<T> {
  head: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** Class of the header and of every cell ('lb-num' for numbers, 'lb-hide-narrow' for what phones leave out). */
  className?: string;
  /** More attributes of one row's cell (a title, a per-row class in place of `className`). */
  td?: (row: T) => TdHTMLAttributes<HTMLTableCellElement>;
}

/**
 * A table with one row per item, the shape of every listing on the site (runs, episodes,
 * games, jobs, sessions): `empty` stands in its place when there are no rows, and `wrap`
 * names the class of the block that lets a wide table scroll sideways on a phone.
 */
export function DataTable<T>(props: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T, index: number) => string | number;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  className?: string;
  testId?: string;
  wrap?: string;
  empty?: ReactNode;
}) {
  const { rows, columns, rowKey, rowProps, className, testId, wrap, empty } = props;
  if (rows.length === 0 && empty !== undefined) return <p className="muted">{empty}</p>;
  const table = (
    <table className={className} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c, j) => (
            <th key={j} className={c.className}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row, i)} {...rowProps?.(row)}>
            {columns.map((c, j) => (
              <td key={j} className={c.className} {...c.td?.(row)}>
                {c.cell(row, i)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return wrap ? <div className={wrap}>{table}</div> : table;
}

/** A leaderboard-styled `DataTable` that scrolls sideways on narrow screens. */
export function BoardTable<T>(props: Omit<Parameters<typeof DataTable<T>>[0], 'className' | 'wrap'>) {
  return <DataTable {...props} className="lb-board" wrap="scroll-x" />;
}
