import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorMessage, Progress } from '../components/ui';
import { CONTINUE_SIGN_IN_HASH, startSignIn } from './authorization-flow';
import { useFlowEnvironment } from './flow-environment';

/**
 * Starts the authorization code flow, returning to `returnTo`; `busy` from the start until the page is left.
 * `automatic`: a start nobody clicked for, which replaces this page in the tab's history.
 */
function useSignIn(returnTo: string, automatic: boolean) {
  const env = useFlowEnvironment();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // Back from the service's page (the browser's back/forward cache): the button works again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    addEventListener('pageshow', shown);
    return () => removeEventListener('pageshow', shown);
  }, []);
  const start = async (replace: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await startSignIn(env, returnTo, { replace });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const started = useRef(false);
  useEffect(() => {
    if (!automatic || started.current) return;
    started.current = true;
    void start(true);
  });
  return { busy, error, start: () => start(false) };
}

/**
 * The card of the signed-out screens: a title, what happened, and one button that signs in. `autoStart`: the
 * sign-in starts at once, with only a progress line shown; the card appears if it cannot (the service's metadata
 * unreachable), with the reason.
 */
export function SignInCard(props: {
  title: string;
  children?: ReactNode;
  button: string;
  returnTo: string;
  autoStart?: boolean;
}) {
  const { busy, error, start } = useSignIn(props.returnTo, props.autoStart ?? false);
  if (props.autoStart && !error) {
    return (
      <main className="sign-in">
        <div className="card">
          <Progress label="Opening the sign-in page…" />
        </div>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <form
        className="card"
        aria-labelledby="sign-in-title"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <h1 id="sign-in-title">{props.title}</h1>
        {props.children}
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : props.button}
        </button>
      </form>
    </main>
  );
}

/**
 * What a signed-out visitor sees. Nobody signed in yet: straight on to the service's sign-in page (and back to this
 * page afterwards), as there is nothing else to do here. After a sign-out or an ended session (`message`): the
 * reason and a "Sign in" button, so that the way back is visible and nothing signs in again unasked. A sign-in
 * started at another address of the service arrives with CONTINUE_SIGN_IN_HASH and goes on (see startSignIn).
 */
export function SignInPage({ message }: { message?: string }) {
  const { pathname, search, hash } = useLocation();
  // Decided when the screen opens, not again on every render.
  const [automatic] = useState(hash === CONTINUE_SIGN_IN_HASH || !message);
  return (
    <SignInCard title="Administration" button="Sign in" returnTo={pathname + search} autoStart={automatic}>
      {message && (
        <p className="message message-info" role="status">
          {message}
        </p>
      )}
    </SignInCard>
  );
}
