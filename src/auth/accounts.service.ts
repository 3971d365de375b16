import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@/common/clock';
import type { Principal } from '@/common/principal';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { Mailer } from '@/mail/mailer.service';
import type { Publisher } from '@/publishers/entities/publisher.entity';
import { PublishersService } from '@/publishers/publishers.service';
import { passwordResetMail, verificationMail } from './account-mails';
import { AccountTokens } from './account-tokens.service';
import type {
  ChangePasswordDto,
  ForgotPasswordDto,
  MessageDto,
  ResetPasswordDto,
} from './dto/accounts.dto';
import { LoginThrottle } from './login-throttle.service';
import { PasswordHasher } from './password-hasher.service';
import { SessionsService } from './sessions.service';

const MAIL_ON_ITS_WAY: MessageDto = {
  message: 'If an account has this email address, a mail with a link is on its way.',
};

/** Password change and reset, and email verification: the account routes besides sign-in. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    private readonly publishers: PublishersService,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly tokens: AccountTokens,
    private readonly throttle: LoginThrottle,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Ends every other session of the account: whoever else knew the old password is out. */
  async changePassword(principal: Principal, input: ChangePasswordDto, ip: string): Promise<void> {
    const publisher = await this.account(principal);
    await this.throttle.check(ip, publisher.email, 'password-change');
    if (!(await this.passwords.verify(publisher.passwordHash, input.current_password))) {
      throw new ProblemException(
        HttpStatus.UNAUTHORIZED,
        'invalid_credentials',
        'The current password is wrong.',
      );
    }
    await this.publishers.setPasswordHash(
      publisher.id,
      await this.passwords.hash(input.new_password),
    );
    await this.tokens.useAllOf(publisher.id, 'password_reset');
    await this.sessions.endAllOf(publisher.id, principal.sessionId);
  }

  /**
   * The same answer, in about the same time, whether or not the address has an account: the
   * token and the mail are made after answering, so nobody learns who has an account here.
   */
  async forgotPassword(input: ForgotPasswordDto, ip: string): Promise<MessageDto> {
    await this.throttle.check(ip, input.email, 'account-mail');
    const publisher = await this.publishers.findPublisherByEmail(input.email);
    if (publisher?.status === 'active') {
      this.inBackground(this.mailLink(publisher, 'password_reset'));
    }
    return MAIL_ON_ITS_WAY;
  }

  /** Ends every session of the account; following the mailed link also proves the address. */
  async resetPassword(input: ResetPasswordDto): Promise<void> {
    const publisherId = await this.tokens.use(input.token, 'password_reset');
    if (!publisherId) {
      throw ProblemException.badRequest(
        'invalid_reset_token',
        'This reset link is unknown, used or expired; ask for a new one.',
      );
    }
    await this.publishers.setPasswordHash(
      publisherId,
      await this.passwords.hash(input.new_password),
    );
    await this.tokens.useAllOf(publisherId, 'password_reset');
    await this.sessions.endAllOf(publisherId);
    await this.publishers.markEmailVerified(publisherId, this.clock.now());
  }

  async verifyEmail(token: string): Promise<void> {
    const publisherId = await this.tokens.use(token, 'email_verification');
    if (!publisherId) {
      throw ProblemException.badRequest(
        'invalid_verification_token',
        'This verification link is unknown, used or expired; ask for a new one.',
      );
    }
    await this.publishers.markEmailVerified(publisherId, this.clock.now());
  }

  /** A new verification mail, unless the address is verified already. */
  async resendVerification(principal: Principal, ip: string): Promise<MessageDto> {
    const publisher = await this.account(principal);
    await this.throttle.check(ip, publisher.email, 'account-mail');
    if (!publisher.emailVerifiedAt) this.sendVerification(publisher);
    return MAIL_ON_ITS_WAY;
  }

  /** Sends the verification mail of a new account, after the caller has answered. */
  sendVerification(publisher: Publisher): void {
    this.inBackground(this.mailLink(publisher, 'email_verification'));
  }

  private async mailLink(
    publisher: Publisher,
    purpose: 'password_reset' | 'email_verification',
  ): Promise<void> {
    const token = await this.tokens.issue(publisher.id, purpose);
    const mail = purpose === 'password_reset' ? passwordResetMail : verificationMail;
    await this.mailer.send(mail(this.config, publisher.email, token));
  }

  private inBackground(work: Promise<void>): void {
    work.catch((error: Error) => this.logger.error(`account mail failed: ${error.message}`));
  }

  private async account(principal: Principal): Promise<Publisher> {
    const publisher = await this.publishers.findPublisher(principal.publisherId);
    // The session guard found it a moment ago; only a deletion in between gets here.
    if (!publisher) {
      throw new ProblemException(HttpStatus.UNAUTHORIZED, 'unauthorized', 'Sign in again.');
    }
    return publisher;
  }
}
