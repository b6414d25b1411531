import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/**
 * The account menu at the top right: a button named after the signed-in account that opens a menu (WAI-ARIA menu
 * button: Enter, Space or ↓ open it on the first item, ↑ on the last; arrows, Home and End move; Escape closes it and
 * gives the focus back to the button; a click elsewhere or Tab closes it).
 */
export function AccountMenu({ name, items }: { name: string; items: Array<{ label: string; onSelect: () => void }> }) {
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(0);
  const buttonId = useId();
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const itemRefs = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (open) itemRefs.current[focused]?.focus();
  }, [open, focused]);
  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const openAt = (index: number) => {
    setFocused(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 0 : items.length - 1);
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focused === last ? 0 : focused + 1,
      ArrowUp: focused === 0 ? last : focused - 1,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setFocused(moves[event.key]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className="account-menu">
      <button
        ref={button}
        id={buttonId}
        type="button"
        className="account-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
        aria-label={`Account: ${name}`}
      >
        {name}
        <span className="caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <ul ref={menu} id={menuId} role="menu" aria-labelledby={buttonId} hidden={!open} onKeyDown={onMenuKey}>
        {items.map((item, index) => (
          <li key={item.label} role="none">
            <button
              ref={(node) => {
                itemRefs.current[index] = node;
              }}
              type="button"
              role="menuitem"
              tabIndex={index === focused ? 0 : -1}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
