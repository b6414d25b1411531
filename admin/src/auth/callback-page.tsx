import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Progress } from '../components/ui';
import { useServices } from '../context';
import { CALLBACK_PATH, completeSignIn, type SignInOutcome } from './authorization-flow';
import { useFlowEnvironment } from './flow-environment';
import { SignInCard } from './sign-in-page';

/**
 * The redirect URI of the `administration` client: checks the authorization response and redeems its code, then
 * shows the page the user was going to, with code and state gone from the address (and the history). A refusal, a
 * cancel or a response this tab did not ask for is said in words, with a way to sign in again.
 */
export function CallbackPage() {
  const { session } = useServices();
  const env = useFlowEnvironment();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [failure, setFailure] = useState<Extract<SignInOutcome, { ok: false }>>();
  // The code works once: React's development double effects must not redeem it twice.
  const completing = useRef<Promise<SignInOutcome>>(undefined);
  useEffect(() => {
    if (!completing.current && session.state.signedIn) {
      void navigate('/', { replace: true });
      return;
    }
    completing.current ??= completeSignIn(env, session, new URLSearchParams(search));
    let current = true;
    void completing.current.then((outcome) => {
      if (!current) return;
      if (outcome.ok) {
        void navigate(outcome.returnTo, { replace: true });
      } else {
        void navigate(CALLBACK_PATH, { replace: true });
        setFailure(outcome);
      }
    });
    return () => {
      current = false;
    };
    // Once, with the response the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (!failure) {
    return (
      <main className="sign-in">
        <div className="card">
          <Progress label="Signing in…" />
        </div>
      </main>
    );
  }
  return (
    <SignInCard title="Not signed in" button="Sign in again" returnTo={failure.returnTo}>
      <p className="message message-error" role="alert">
        {failure.message}
      </p>
    </SignInCard>
  );
}
