import type { ReactNode } from 'react';

/**
 * The table of the system pages (integrations, roles, users): a header per column, then one for the actions, which
 * each row puts in its last cell (`<td className="actions">`). Under 768px each row becomes a card.
 */
export function SystemTable({
  columns,
  actions = true,
  children,
}: {
  columns: string[];
  /** Whether the rows end with an actions cell (not for an account that may only read). */
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <table className="table system-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
