import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";

/**
 * A local fake LINE issuer (OpenID Connect, as LINE Login v2.1 behaves): discovery, an authorize endpoint that
 * signs the next user in at once and redirects back with a code, a token endpoint that checks the client secret,
 * redirect URI and PKCE verifier and answers an ES256 ID token, and the JWKS. Plain `Request → Response`, so the
 * API tests call it from a fetch stub inside workerd (like push-service.ts) and the journeys serve it over HTTP
 * (tests/e2e/support/line-issuer.ts).
 */
export const FAKE_LINE_CHANNEL_ID = "1650000001";
export const FAKE_LINE_CHANNEL_SECRET = "fake-line-channel-secret-0123456789";

/** What the next ID token gets wrong (each one must be refused by the worker). */
export type TokenTweaks = {
  audience?: string;
  nonce?: string;
  /** Seconds from now; negative = already expired. */
  expiresIn?: number;
  issuer?: string;
  /** Signed by a key that is not in the JWKS (same kid). */
  foreignKey?: boolean;
  /** HS256 with this secret (LINE web login signs with the channel secret). */
  hs256Secret?: string;
};

type Grant = { sub: string; nonce: string; challenge: string; redirectUri: string; used: boolean };

export class FakeLineIssuer {
  /** The LINE user the next authorization signs in (a fresh one when unset). */
  nextSub: string | null = null;
  tweaks: TokenTweaks = {};
  tokenRequests = 0;
  readonly subs: string[] = [];
  private grants = new Map<string, Grant>();
  private keys?: { privateKey: CryptoKey; foreign: CryptoKey; jwk: Record<string, unknown> };

  constructor(
    readonly issuer: string,
    readonly channelId = FAKE_LINE_CHANNEL_ID,
    readonly channelSecret = FAKE_LINE_CHANNEL_SECRET,
  ) {}

  private async signingKeys() {
    if (!this.keys) {
      const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
      const foreign = (await generateKeyPair("ES256")).privateKey;
      const jwk = { ...(await exportJWK(publicKey)), kid: "fake-line-1", alg: "ES256", use: "sig" };
      this.keys = { privateKey, foreign, jwk };
    }
    return this.keys;
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    if (url.pathname === "/.well-known/openid-configuration") {
      return json({
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/oauth2/v2.1/authorize`,
        token_endpoint: `${this.issuer}/oauth2/v2.1/token`,
        jwks_uri: `${this.issuer}/oauth2/v2.1/certs`,
        response_types_supported: ["code"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["ES256"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/oauth2/v2.1/certs") return json({ keys: [(await this.signingKeys()).jwk] });
    if (url.pathname === "/oauth2/v2.1/authorize") {
      const q = url.searchParams;
      const redirectUri = q.get("redirect_uri") ?? "";
      if (q.get("response_type") !== "code" || q.get("client_id") !== this.channelId || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("state") || !redirectUri) {
        return json({ error: "invalid_request" }, 400);
      }
      const sub = this.nextSub ?? `U${crypto.randomUUID().replace(/-/g, "")}`;
      this.nextSub = null;
      this.subs.push(sub);
      const code = crypto.randomUUID().replace(/-/g, "");
      this.grants.set(code, { sub, nonce: q.get("nonce") ?? "", challenge: q.get("code_challenge") ?? "", redirectUri, used: false });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return new Response(null, { status: 302, headers: { Location: back.toString() } });
    }
    if (url.pathname === "/oauth2/v2.1/token" && request.method === "POST") {
      this.tokenRequests++;
      const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
      const grant = this.grants.get(form.get("code") ?? "");
      const challenge = await s256(form.get("code_verifier") ?? "");
      if (
        form.get("grant_type") !== "authorization_code" ||
        form.get("client_id") !== this.channelId ||
        form.get("client_secret") !== this.channelSecret ||
        !grant ||
        grant.used ||
        grant.redirectUri !== form.get("redirect_uri") ||
        grant.challenge !== challenge
      ) {
        return json({ error: "invalid_grant", error_description: "invalid authorization code" }, 400);
      }
      grant.used = true;
      return json({ access_token: "fake-access-token", token_type: "Bearer", expires_in: 2592000, scope: "openid", id_token: await this.idToken(grant) });
    }
    return json({ error: "not_found" }, 404);
  }

  private async idToken(grant: Grant) {
    const t = this.tweaks;
    const at = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ nonce: t.nonce ?? grant.nonce, amr: ["pwd"] })
      .setIssuer(t.issuer ?? this.issuer)
      .setSubject(grant.sub)
      .setAudience(t.audience ?? this.channelId)
      .setIssuedAt(at - 5)
      .setExpirationTime(at + (t.expiresIn ?? 3600));
    if (t.hs256Secret) return jwt.setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(t.hs256Secret));
    const keys = await this.signingKeys();
    return jwt.setProtectedHeader({ alg: "ES256", typ: "JWT", kid: "fake-line-1" }).sign(t.foreignKey ? keys.foreign : keys.privateKey);
  }
}

async function s256(verifier: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
