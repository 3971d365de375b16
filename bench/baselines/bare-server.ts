import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, Redirect } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The framework's own ceiling on this machine: NestJS on Fastify with no guards, pipes,
 * filters or database, answering the shapes of fetch-ads (a ~1 KB JSON body in, a ~600-byte
 * JSON answer out) and of the click (a 302). `node dist/bench/baselines/bare-server.js <port>`.
 */
const ANSWER = {
  advertisements: [
    {
      campaign_name: 'GPU Cloud for ML',
      campaign_text: 'Train your models 3x faster on rented GPUs. First 10 hours free.',
      campaign_markdown:
        '\n\n**Train your models 3x faster on rented GPUs\\. First 10 hours free\\.**\n\n[GPU Cloud for ML](http://127.0.0.1:3000/api/campaign_click?campaign_id=019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e)\n\n_Sponsored · Adline_',
      campaign_link:
        'http://127.0.0.1:3000/api/campaign_click?campaign_id=019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e&model_id=019a8a3e-5b1c-7cc1-9d0e-000000000001&targetLink=https%3A%2F%2Fexample.com%2Fgpu-cloud&imp=019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6f&sig=abcdefghijklmnopqrstuv',
      bid_per_click: 0.45,
    },
  ],
};

@Controller('bare')
class BareController {
  @Post('fetch-ads')
  @HttpCode(200)
  fetchAds(@Body() body: unknown): typeof ANSWER {
    void body;
    return ANSWER;
  }

  @Get('click')
  @Redirect()
  click(): { url: string; statusCode: number } {
    return { url: 'https://example.com/gpu-cloud', statusCode: 302 };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 3100);
  const app = await NestFactory.create<NestFastifyApplication>(BareModule, new FastifyAdapter(), {
    logger: ['error'],
  });
  await app.listen({ port, host: '127.0.0.1' });
  console.log(`bare listening on ${port}`);
}

void main();
