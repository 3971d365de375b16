import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from '@/config/app-config';

/** A plain-text mail to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends account mail over SMTP (SMTP_URL). Without SMTP_URL, outside production it prints
 * each mail to the log, so a developer can follow its link; in production it only warns that
 * mail is not configured, never logging the mail, whose link would let anyone reading the
 * logs into the account.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | null;

  constructor(private readonly config: AppConfig) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : null;
  }

  /** Never rejects: a mail that cannot be sent is logged, and the caller's answer stays the same. */
  async send(mail: Mail): Promise<void> {
    if (!this.transport) return this.withoutSmtp(mail);
    try {
      await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
    } catch (error) {
      this.logger.error(`could not send "${mail.subject}": ${(error as Error).message}`);
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }

  private withoutSmtp(mail: Mail): void {
    if (this.config.isProduction) {
      this.logger.warn(`mail is not configured (set SMTP_URL): "${mail.subject}" was not sent`);
      return;
    }
    // A warning, so that the default LOG_LEVEL (warn) shows it: the link is the developer's way in.
    this.logger.warn(
      `mail not sent (SMTP_URL unset) to ${mail.to}: ${mail.subject}\n\n${mail.text}`,
    );
  }
}
