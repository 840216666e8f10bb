// @node-rs/argon2 is loaded on the first hash or check, not at start: its native library is several
// MB of resident memory that an idle appliance never needs (bench/footprint.bench.ts).
const argon2 = () => import('@node-rs/argon2');

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes): memory-hard, and cheap enough for a
// Pi Zero 2 W to answer a login in well under a second.
export const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2().then(({ hash }) => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    const { verify } = await argon2();
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
