import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '@/app.setup';
import { AppConfig } from '@/config/app-config';
import { buildOpenApiDocument, sortKeys } from '@/openapi';

/**
 * Writes `openapi.json` from the code (`npm run openapi`). The e2e suite fails when the
 * committed file differs from what the code generates.
 */
export async function generateOpenApi(): Promise<string> {
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: 'sqlite::memory:',
    BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'error',
  });
  const app = await createApp(config);
  try {
    return `${JSON.stringify(sortKeys(buildOpenApiDocument(app, config)), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  generateOpenApi()
    .then((document) => {
      const file = join(__dirname, '..', '..', 'openapi.json');
      writeFileSync(file, document);
      console.log(`wrote ${file}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
