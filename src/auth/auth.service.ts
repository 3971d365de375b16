import { HttpStatus, Injectable } from '@nestjs/common';
import { ProblemException } from '@/common/problem';
import { toPublisherDto } from '@/publishers/dto/publisher.dto';
import { PublishersService } from '@/publishers/publishers.service';
import { AccountsService } from './accounts.service';
import { LoginDto, RegisterDto, SessionDto } from './dto/credentials.dto';
import { LoginThrottle } from './login-throttle.service';
import { PasswordHasher } from './password-hasher.service';
import { SessionsService } from './sessions.service';

/** Publisher sign-up (with its verification mail), sign-in and sign-out. */
@Injectable()
export class AuthService {
  constructor(
    private readonly publishers: PublishersService,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottle,
    private readonly accounts: AccountsService,
  ) {}

  async register(input: RegisterDto): Promise<SessionDto> {
    if (await this.publishers.findPublisherByEmail(input.email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(input.password);
    const publisher = await this.publishers
      .createPublisher({ email: input.email, name: input.name, passwordHash })
      .catch(async (error: unknown) => {
        // Two sign-ups racing for one email: the unique index decides, the loser gets 409.
        if (await this.publishers.findPublisherByEmail(input.email)) throw emailTaken();
        throw error;
      });
    const session = await this.sessions.start(publisher.id);
    this.accounts.sendVerification(publisher);
    return {
      publisher: toPublisherDto(publisher),
      access_token: session.token,
      expires_at: session.expiresAt.toISOString(),
    };
  }

  /** One answer for a wrong email and a wrong password, in about the same time. */
  async login(input: LoginDto, ip: string): Promise<SessionDto> {
    await this.throttle.check(ip, input.email);
    const publisher = await this.publishers.findPublisherByEmail(input.email);
    const valid = await this.passwords.verify(publisher?.passwordHash ?? null, input.password);
    if (!publisher || !valid) {
      throw new ProblemException(
        HttpStatus.UNAUTHORIZED,
        'invalid_credentials',
        'The email or password is wrong.',
      );
    }
    if (publisher.status !== 'active') {
      throw new ProblemException(HttpStatus.FORBIDDEN, 'forbidden', 'This account is suspended.');
    }
    const session = await this.sessions.start(publisher.id);
    return {
      publisher: toPublisherDto(publisher),
      access_token: session.token,
      expires_at: session.expiresAt.toISOString(),
    };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId);
  }
}

const emailTaken = () =>
  new ProblemException(
    HttpStatus.CONFLICT,
    'email_taken',
    'An account with this email already exists.',
  );
