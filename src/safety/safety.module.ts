import { Module } from '@nestjs/common';
import { SensitiveTopicDetector } from './sensitive-topic-detector.service';

/** Checks that keep ads away from conversations where an ad does harm. */
@Module({
  providers: [SensitiveTopicDetector],
  exports: [SensitiveTopicDetector],
})
export class SafetyModule {}
