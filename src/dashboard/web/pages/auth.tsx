import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Publisher } from '../api';
import { FormError, TextField, useFormAction } from '../components/form';
import { PageTitle } from '../components/ui';
import { href } from '../router';

interface AuthPageProps {
  onSignedIn: (publisher: Publisher) => void;
  /** Why the visitor is here, e.g. after a session ended. */
  notice?: string | null;
}

export function SignInPage({ onSignedIn, notice }: AuthPageProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    const { publisher } = await api.login({ email, password });
    onSignedIn(publisher);
  });
  return (
    <AuthForm
      form={form}
      title="Sign in"
      heading="Sign in"
      lead="Manage your AI models, API keys and earnings."
      notice={notice}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      switchTo={
        <>
          New to Adline? <a href={href('/signup')}>Create an account</a>
        </>
      }
    >
      <CredentialField
        formId="signin"
        field="email"
        autoComplete="username"
        value={email}
        onValue={setEmail}
        error={form.error?.forField('email')}
      />
      <CredentialField
        formId="signin"
        field="password"
        autoComplete="current-password"
        value={password}
        onValue={setPassword}
        error={form.error?.forField('password')}
      />
    </AuthForm>
  );
}

export function SignUpPage({ onSignedIn }: AuthPageProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    const { publisher } = await api.register({ name, email, password });
    onSignedIn(publisher);
  });
  return (
    <AuthForm
      form={form}
      title="Create an account"
      heading="Create a publisher account"
      lead="Show relevant ads in your AI's replies and earn from every valid click."
      submitLabel="Create account"
      busyLabel="Creating your account…"
      switchTo={
        <>
          Already have an account? <a href={href('/signin')}>Sign in</a>
        </>
      }
    >
      <TextField
        id="signup-name"
        label="Publisher name"
        hint="Your company or your own name."
        autoComplete="organization"
        value={name}
        onValue={setName}
        maxLength={100}
        error={form.error?.forField('name')}
      />
      <CredentialField
        formId="signup"
        field="email"
        autoComplete="email"
        value={email}
        onValue={setEmail}
        error={
          form.error?.forField('email') ??
          (form.error?.code === 'email_taken' ? form.error.message : undefined)
        }
      />
      <CredentialField
        formId="signup"
        field="password"
        hint="At least 10 characters."
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        error={form.error?.forField('password')}
      />
    </AuthForm>
  );
}

interface AuthFormProps {
  form: ReturnType<typeof useFormAction>;
  /** The document's title; `heading` is the page's. */
  title: string;
  heading: string;
  lead: string;
  notice?: string | null;
  submitLabel: string;
  busyLabel: string;
  /** The way to the other form, below this one. */
  switchTo: ComponentChildren;
  children: ComponentChildren;
}

/** The card that holds the sign-in or the sign-up form. */
function AuthForm({ form, ...props }: AuthFormProps) {
  return (
    <section class="auth card">
      <PageTitle title={props.title}>{props.heading}</PageTitle>
      <p class="lead">{props.lead}</p>
      {props.notice && (
        <p class="alert alert--info" role="status">
          {props.notice}
        </p>
      )}
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        {props.children}
        <button type="submit" class="button button--primary button--wide" disabled={form.busy}>
          {form.busy ? props.busyLabel : props.submitLabel}
        </button>
      </form>
      <p class="auth__switch">{props.switchTo}</p>
    </section>
  );
}

const CREDENTIAL_LABELS = { email: 'Email', password: 'Password' };

interface CredentialFieldProps {
  /** The form it belongs to: the input's id is e.g. `signin-email`. */
  formId: 'signin' | 'signup';
  field: 'email' | 'password';
  autoComplete: string;
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
  hint?: string;
}

/** The email or password field of the sign-in and sign-up forms. */
function CredentialField({ formId, field, ...rest }: CredentialFieldProps) {
  return (
    <TextField id={`${formId}-${field}`} label={CREDENTIAL_LABELS[field]} type={field} {...rest} />
  );
}
