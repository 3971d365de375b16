import { installRecorder } from './openapi-recorder';

// Set up for every e2e suite in jest.config.js: each answer of the service is checked
// against openapi.json (test/support/openapi-recorder.ts).
installRecorder();
