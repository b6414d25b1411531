import { useEffect, useId, useRef, useState } from 'react';

/** How long typing pauses before the list is asked again. */
export const SEARCH_DELAY_MS = 300;

/**
 * A search field with a visible label: the list follows what is typed once typing pauses, or at once on Enter.
 * `value` comes from the address; the field shows what is typed meanwhile.
 */
export function SearchBox({ label, value, onSearch }: { label: string; value: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const searched = useRef(value);
  // Back, Forward or a link: the address changed under the field.
  useEffect(() => {
    if (value !== searched.current) {
      searched.current = value;
      setText(value);
    }
  }, [value]);
  const search = (q: string) => {
    if (q === searched.current) return;
    searched.current = q;
    onSearch(q);
  };
  useEffect(() => {
    const timer = setTimeout(() => search(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  return (
    <form
      role="search"
      className="search-box"
      onSubmit={(event) => {
        event.preventDefault();
        search(text);
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" maxLength={200} value={text} onChange={(event) => setText(event.target.value)} />
    </form>
  );
}
