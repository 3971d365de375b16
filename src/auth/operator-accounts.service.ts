import { Injectable } from '@nestjs/common';
import { PublishersService } from '@/publishers/publishers.service';
import { PasswordHasher } from './password-hasher.service';

/**
 * - `created`: a new operator account;
 * - `exists`: an operator with this email was there already (its password is left alone);
 * - `taken_by_publisher`: a publisher account holds this email; it is not promoted, since
 *   anyone can register an email and must not become an operator by doing so first.
 */
export type OperatorOutcome = 'created' | 'exists' | 'taken_by_publisher';

/** Operators (role `admin`) are made here only: at start-up and by `npm run admin:create`. */
@Injectable()
export class OperatorAccounts {
  constructor(
    private readonly publishers: PublishersService,
    private readonly passwords: PasswordHasher,
  ) {}

  async ensureOperator(email: string, password: string): Promise<OperatorOutcome> {
    const existing = await this.publishers.findPublisherByEmail(email);
    if (existing) return existing.role === 'admin' ? 'exists' : 'taken_by_publisher';
    await this.publishers.createPublisher({
      email,
      name: 'Operator',
      role: 'admin',
      passwordHash: await this.passwords.hash(password),
      emailVerified: true,
    });
    return 'created';
  }
}
