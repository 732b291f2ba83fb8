import { useState } from "preact/hooks";
import { api, tokenStore } from "../api";
import { errorText } from "../hooks";
import type { Me } from "../types";

export function SignInPage({ message, onSignedIn }: { message: string | null; onSignedIn: (me: Me) => void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const me = await api<Me>("/me", { token: token.trim() });
      tokenStore.set(token.trim());
      onSignedIn(me);
    } catch (caught) {
      setError(`That token was not accepted: ${errorText(caught)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="signin card" onSubmit={submit}>
      <h1>raysweep</h1>
      <p>Paste an API token. The server wrote an admin token to <code>$RAYSWEEP_HOME/admin-token</code>;
        more come from <code>python -m service token create NAME --role viewer|member|admin</code>.</p>
      <input name="token" type="password" autocomplete="off" placeholder="rsw_…" value={token}
        onInput={(e) => setToken((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={busy || !token.trim()}>Sign in</button>
      {error && <p class="error" role="alert">{error}</p>}
      <p class="muted">The token stays in this browser's local storage.</p>
    </form>
  );
}
