import { Logger } from '@nestjs/common';
import type { AppConfig } from '@/config/app-config';
import { Mailer } from './mailer.service';

const mail = {
  to: 'ada@example.test',
  subject: 'Reset your Adline password',
  text: 'Open https://adline.example/dashboard/#/reset-password?token=SECRET-TOKEN',
};

const mailerWithout = (isProduction: boolean) =>
  new Mailer({ smtpUrl: null, isProduction, mailFrom: 'Adline <no-reply@x>' } as AppConfig);

describe('Mailer without SMTP_URL', () => {
  afterEach(() => jest.restoreAllMocks());

  it('prints the whole mail, link included, to the log outside production', async () => {
    // At warn level, which the default LOG_LEVEL shows.
    const log = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await mailerWithout(false).send(mail);
    const line = String(log.mock.calls[0][0]);
    expect(line).toContain(mail.to);
    expect(line).toContain(mail.subject);
    expect(line).toContain('SECRET-TOKEN');
  });

  it('only warns in production, never logging the link', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await mailerWithout(true).send(mail);
    expect(log).not.toHaveBeenCalled();
    expect(String(warn.mock.calls[0][0])).toMatch(/not configured/);
    expect(String(warn.mock.calls[0][0])).not.toContain('SECRET-TOKEN');
  });
});
