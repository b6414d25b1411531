import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorMessage } from '../components/ui';
import { CONTINUE_SIGN_IN_HASH, startSignIn } from './authorization-flow';
import { useFlowEnvironment } from './flow-environment';

/** Starts the authorization code flow, returning to `returnTo`; `busy` from the click until the page is left. */
function useSignIn(returnTo: string) {
  const env = useFlowEnvironment();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // Back from the service's page (the browser's back/forward cache): the button works again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    addEventListener('pageshow', shown);
    return () => removeEventListener('pageshow', shown);
  }, []);
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await startSignIn(env, returnTo);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return { busy, error, start };
}

/**
 * The card of the signed-out screens: a title, what happened, and one button that signs in (`autoStart`: at once,
 * for a sign-in that was already asked for).
 */
export function SignInCard(props: {
  title: string;
  children?: ReactNode;
  button: string;
  returnTo: string;
  autoStart?: boolean;
}) {
  const { busy, error, start } = useSignIn(props.returnTo);
  const started = useRef(false);
  useEffect(() => {
    if (!props.autoStart || started.current) return;
    started.current = true;
    void start();
  });
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
 * What a signed-out visitor sees: "Sign in" goes to the service's sign-in page, and back to this page afterwards;
 * the reason of an ended session, if there is one. A sign-in started at another address of the service arrives with
 * CONTINUE_SIGN_IN_HASH and goes on by itself (see startSignIn).
 */
export function SignInPage({ message }: { message?: string }) {
  const { pathname, search, hash } = useLocation();
  const [continuing] = useState(hash === CONTINUE_SIGN_IN_HASH);
  return (
    <SignInCard title="Administration" button="Sign in" returnTo={pathname + search} autoStart={continuing}>
      {message && (
        <p className="message message-info" role="status">
          {message}
        </p>
      )}
    </SignInCard>
  );
}
