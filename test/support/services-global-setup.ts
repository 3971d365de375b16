import { checkMysql, checkRedis } from './global-setup';

/** The services suites run only where Redis (and the MySQL DATABASE_URL names) answer. */
export default async function servicesGlobalSetup(): Promise<void> {
  await checkRedis();
  await checkMysql();
}
