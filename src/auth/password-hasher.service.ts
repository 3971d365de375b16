import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3, p=4): OWASP's recommended family. */
@Injectable()
export class PasswordHasher {
  // Verified against when the email is unknown, so both failures take about as long.
  private readonly decoy = argon2.hash('decoy password never matched', { type: argon2.argon2id });

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    if (!hash) {
      await argon2.verify(await this.decoy, password);
      return false;
    }
    return argon2.verify(hash, password);
  }
}
