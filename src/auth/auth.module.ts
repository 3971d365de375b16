import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@/config/app-config';
import { MailModule } from '@/mail/mail.module';
import { PublishersModule } from '@/publishers/publishers.module';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountTokens } from './account-tokens.service';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AccountToken } from './entities/account-token.entity';
import { Session } from './entities/session.entity';
import { LoginThrottle } from './login-throttle.service';
import { OperatorAccounts } from './operator-accounts.service';
import { OperatorBootstrap } from './operator-bootstrap.service';
import { PasswordHasher } from './password-hasher.service';
import { SessionGuard } from './session.guard';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Session, AccountToken]),
    PublishersModule,
    MailModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: config.sessionSecret,
        signOptions: { algorithm: 'HS256' },
      }),
    }),
  ],
  controllers: [AuthController, AccountsController],
  providers: [
    AuthService,
    AccountsService,
    AccountTokens,
    AccountTokensRepository,
    PasswordHasher,
    SessionsService,
    SessionsRepository,
    // Global: acts on the routes marked @Authenticated() (src/common/authenticated.decorator.ts).
    { provide: APP_GUARD, useClass: SessionGuard },
    LoginThrottle,
    OperatorAccounts,
    OperatorBootstrap,
  ],
  exports: [PasswordHasher],
})
export class AuthModule {}
