import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets. Standard Webhooks signs with the raw secret, so
 * the service must be able to read it back: it is kept encrypted
 * (AES-256-GCM, the endpoint id bound as associated data) under a key
 * derived (HKDF-SHA256) from the key vault's master key, never in clear in
 * the database, and shown to the caller once, when the endpoint is created.
 */

export const SECRET_PREFIX = 'whsec_';

/** A new secret: whsec_ and the base64 of 32 random bytes (what Standard Webhooks libraries expect). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Seals and opens secrets with the current master key (and older ones after a rotation). */
export interface SecretBox {
  seal(endpointId: string, secret: string): { ciphertext: string; keyVersion: string };
  open(endpointId: string, ciphertext: string, keyVersion: string): string;
}

function derive(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'webhook-secrets:v1', 32));
}

const versionOf = (key: Buffer) => createHash('sha256').update('webhook-secrets:v1:').update(key).digest('hex').slice(0, 16);

export function createSecretBox(masterKey: Buffer, previousKeys: readonly Buffer[] = []): SecretBox {
  const current = derive(masterKey);
  const currentVersion = versionOf(masterKey);
  const byVersion = new Map([masterKey, ...previousKeys].map((k) => [versionOf(k), derive(k)]));
  return {
    seal(endpointId, secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(endpointId));
      const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return { ciphertext: Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64'), keyVersion: currentVersion };
    },
    open(endpointId, ciphertext, keyVersion) {
      const key = byVersion.get(keyVersion);
      if (!key) throw new Error(`webhook secret sealed under a master key that is not configured (${keyVersion})`);
      const raw = Buffer.from(ciphertext, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(endpointId));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The Standard Webhooks signature header value: `v1,` and the base64
 * HMAC-SHA256, keyed with the secret's bytes (after `whsec_`), of
 * `${id}.${timestamp}.${body}`.
 */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
