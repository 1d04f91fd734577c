import argon2 from 'argon2';

export type Argon2Cost = { memoryKiB: number; timeCost: number; parallelism: number };

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of one verification, so an unknown name answers as slowly as a wrong password. */
  burn(password: string): Promise<void>;
};

export function createPasswordHasher(cost: Argon2Cost): PasswordHasher {
  const options = {
    type: argon2.argon2id,
    memoryCost: cost.memoryKiB,
    timeCost: cost.timeCost,
    parallelism: cost.parallelism,
  } as const;
  let dummy: Promise<string> | undefined;
  const verify = async (hash: string, password: string) => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => argon2.hash(password, options),
    verify,
    async burn(password) {
      dummy ??= argon2.hash('not a real password', options);
      await verify(await dummy, password);
    },
  };
}
