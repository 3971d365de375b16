import { Module } from '@nestjs/common';
import { Mailer } from './mailer.service';

/** Account mail (password reset, email verification): the `Mailer`. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
