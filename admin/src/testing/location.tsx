import { useLocation } from 'react-router';

/** Shows the router's address in the page, for a test to read (`screen.getByTestId('location')`). */
export function ShowLocation() {
  const { pathname, search } = useLocation();
  return (
    <output data-testid="location" hidden>
      {pathname + search}
    </output>
  );
}
