import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { authMessages, signupProblem } from '@site/contracts/auth';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { useCoarsePointer } from '../../lib/pointer.ts';
import { trpc } from '../../lib/trpc.ts';
import { passkeyErrorMessage, getPasskey } from './passkeys.ts';

/** A failed call's readable message, and whether the server says the account is still pending. */
function describe(error: unknown): { message: string; preauth: boolean } {
  const message = error instanceof Error && error.message ? error.message : 'Something went wrong. Try again.';
  const data = typeof error === 'object' && error !== null && 'data' in error ? (error as { data?: { preauth?: boolean } }).data : undefined;
  return { message, preauth: data?.preauth === true };
}

export default function LoginPage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const status = trpc.auth.status.useQuery();
  const touch = useCoarsePointer();
  const login = trpc.auth.login.useMutation();
  const signup = trpc.auth.signup.useMutation();
  const passkeyOptions = trpc.auth.passkeyLoginOptions.useMutation();
  const passkeyLogin = trpc.auth.passkeyLogin.useMutation();
  const [passkeyBusy, setPasskeyBusy] = useState(false);

  const [loginName, setLoginName] = useState('');
  const [loginPass, setLoginPass] = useState('');
  const [loginError, setLoginError] = useState<string | null>(null);
  const [signupName, setSignupName] = useState('');
  const [signupPass, setSignupPass] = useState('');
  const [signupConfPass, setSignupConfPass] = useState('');
  const [signupError, setSignupError] = useState<string | null>(null);
  // The first account, made from another machine than the server's, needs the setup code from its log.
  const [needsCode, setNeedsCode] = useState(false);
  const [setupCode, setSetupCode] = useState('');
  // Set once a call succeeded, so the redirect for signed-in visitors does not race the navigation.
  const [done, setDone] = useState(false);

  useEffect(() => {
    document.title = 'Login';
  }, []);

  if (status.data?.user && !done) return <Navigate to="/personal" replace />;

  const afterSuccess = async () => {
    setDone(true);
    // Ask for the login status again, then go to the hub (which sends pending accounts on to /preauth).
    await utils.auth.status.invalidate();
    await Promise.all([utils.settings.colors.invalidate(), utils.settings.navbarStyle.invalidate()]);
    void navigate('/personal');
  };

  const onLogin = (event: FormEvent) => {
    event.preventDefault();
    setLoginError(null);
    login.mutate(
      { name: loginName, password: loginPass },
      {
        onSuccess: afterSuccess,
        onError: (error) => {
          const { message, preauth } = describe(error);
          if (preauth) void navigate('/preauth', { state: { message } });
          else setLoginError(message);
        },
      },
    );
  };

  /** The browser offers this site's passkeys; the server signs in like a password login, and the same flow follows. */
  const onPasskey = async () => {
    setLoginError(null);
    setPasskeyBusy(true);
    try {
      const optionsJSON = await passkeyOptions.mutateAsync();
      const response = await getPasskey(optionsJSON);
      await passkeyLogin.mutateAsync({ response });
      await afterSuccess();
    } catch (error) {
      const { preauth } = describe(error);
      const message = passkeyErrorMessage(error);
      if (preauth) void navigate('/preauth', { state: { message } });
      else setLoginError(message);
    } finally {
      setPasskeyBusy(false);
    }
  };

  const onSignup = (event: FormEvent) => {
    event.preventDefault();
    const problem = signupProblem({ name: signupName, password: signupPass, confirmPassword: signupConfPass });
    setSignupError(problem);
    if (problem) return;
    signup.mutate(
      { name: signupName, password: signupPass, confirmPassword: signupConfPass, ...(needsCode && setupCode.trim() !== '' ? { setupCode } : {}) },
      {
        onSuccess: afterSuccess,
        onError: (error) => {
          const { message } = describe(error);
          if (message === authMessages.setupCodeNeeded || message === authMessages.setupCodeWrong) setNeedsCode(true);
          setSignupError(message);
        },
      },
    );
  };

  return (
    <main className="page login-page">
      <h1 className="visually-hidden">Log in or create an account</h1>
      <div className="panel-pair">
        <form className="card panel" onSubmit={onLogin} aria-labelledby="login-title" noValidate>
          <h2 id="login-title">Log In</h2>
          <TextInput label="Name" name="loginName" autoComplete="username" value={loginName} onValueChange={setLoginName} />
          <TextInput label="Password" name="loginPass" type="password" autoComplete="current-password" value={loginPass} onValueChange={setLoginPass} />
          <ErrorBubble message={loginError} testId="login-error" />
          <button type="submit" className="button primary" disabled={login.isPending}>
            {login.isPending ? 'Logging in...' : 'Login'}
          </button>
          <button type="button" className="button passkey-button" disabled={passkeyBusy} onClick={() => void onPasskey()}>
            {passkeyBusy ? 'Waiting for the passkey...' : 'Sign in with a passkey'}
          </button>
        </form>
        <form className="card panel" onSubmit={onSignup} aria-labelledby="signup-title" noValidate>
          <h2 id="signup-title">Create Account</h2>
          <TextInput label="Name" name="signupName" autoComplete="username" value={signupName} onValueChange={setSignupName} />
          <TextInput label="Password" name="signupPass" type="password" autoComplete="new-password" value={signupPass} onValueChange={setSignupPass} />
          <TextInput
            label="Confirm Password"
            name="signupConfPass"
            type="password"
            autoComplete="new-password"
            value={signupConfPass}
            onValueChange={setSignupConfPass}
          />
          {needsCode && <TextInput label="Setup code" name="setupCode" autoComplete="off" value={setupCode} onValueChange={setSetupCode} />}
          <ErrorBubble message={signupError} testId="signup-error" />
          <button type="submit" className="button primary" disabled={signup.isPending}>
            {signup.isPending ? 'Making account...' : 'Make Account'}
          </button>
        </form>
      </div>
      {/* A touch keyboard has no ctrl: there Enter ("Go") submits, as people expect, and needs no tip. */}
      {!touch && <p className="hint-line">Tip: hold ctrl and press Enter in any field to submit its panel.</p>}
    </main>
  );
}
