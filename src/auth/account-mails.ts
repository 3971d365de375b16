import type { AppConfig } from '@/config/app-config';
import type { Mail } from '@/mail/mailer.service';

/** The dashboard page a mailed link opens, with its token. */
const link = (config: AppConfig, page: string, token: string): string =>
  `${config.baseUrl}/dashboard/#/${page}?token=${encodeURIComponent(token)}`;

export function passwordResetMail(config: AppConfig, to: string, token: string): Mail {
  const service = config.serviceName;
  return {
    to,
    subject: `Reset your ${service} password`,
    text: [
      'Hello,',
      '',
      `someone asked to reset the password of your ${service} account. To choose a new password, open this link within one hour:`,
      '',
      link(config, 'reset-password', token),
      '',
      'The link works once. If you did not ask for this, ignore this mail: your password stays as it is.',
      '',
      `${service}`,
    ].join('\n'),
  };
}

export function verificationMail(config: AppConfig, to: string, token: string): Mail {
  const service = config.serviceName;
  return {
    to,
    subject: `Confirm your email address for ${service}`,
    text: [
      'Hello,',
      '',
      `please confirm that this is the email address of your ${service} account by opening this link within 24 hours:`,
      '',
      link(config, 'verify-email', token),
      '',
      `If you did not create a ${service} account, ignore this mail.`,
      '',
      `${service}`,
    ].join('\n'),
  };
}
