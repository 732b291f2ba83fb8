import { useState } from "preact/hooks";
import { api, tokenStore } from "../api";
import { useAction } from "../hooks";
import type { Me } from "../types";

export function SignInPage({ message, onSignedIn }: { message: string | null; onSignedIn: (me: Me) => void }) {
  const [token, setToken] = useState("");
  const { busy, error: refused, run } = useAction();
  const error = refused ? `That token was not accepted: ${refused}` : message;

  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const me = await api<Me>("/me", { token: token.trim() });
      tokenStore.set(token.trim());
      onSignedIn(me);
    });
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
