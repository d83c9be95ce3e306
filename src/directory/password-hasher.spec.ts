import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './password-hasher';

describe('password hasher', () => {
  it('verifies the password it hashed and rejects another', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsf', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toEqual(await hashPassword('same'));
  });

  it('rejects every password against the unknown-user hash and malformed hashes', async () => {
    await expect(verifyPassword('', UNKNOWN_USER_HASH)).resolves.toBe(false);
    await expect(verifyPassword('x', 'md5$abc')).resolves.toBe(false);
  });
});
