import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiError, type Client } from '../../../../clients/typescript/index.js';
import { signIn } from '../../session.js';
import { FieldError, Problem } from '../../ui/problem.js';

/** Sign-in with email and password; on success, back to where the member was sent from. */
export function SignIn({ client, onSignedIn }: { client: Client; onSignedIn: () => void }) {
  const { route, query } = useLocation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      await signIn(client, String(form.get('email')), String(form.get('password')));
      onSignedIn();
      const next = query.next;
      route(next?.startsWith('/console/t/') ? next : '/console/', true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const wrong = error instanceof ApiError && error.status === 401;
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to ops-platform</h1>
      <form onSubmit={submit} noValidate>
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          aria-describedby="email-error"
        />
        <FieldError error={error} path="email" id="email-error" />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-describedby="password-error"
        />
        <FieldError error={error} path="password" id="password-error" />
        {wrong ? (
          <div class="problem" role="alert">
            Wrong email or password.
          </div>
        ) : error ? (
          <Problem error={error} />
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
