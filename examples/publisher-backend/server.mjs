// A minimal publisher backend: the replies of a (canned) AI model with an Adline ad appended
// when one matches, whole (POST /chat) or streamed (POST /chat/stream).
//
//   ADLINE_API_KEY=<key> npm start
//   curl -s -X POST http://localhost:8080/chat -H 'Content-Type: application/json' \
//     -d '{"message":"Which GPU should I rent to train my model?"}'
import { createAdline } from './adline.mjs';
import { createCannedModel } from './canned-model.mjs';
import { createChatServer } from './chat-server.mjs';

const PORT = Number(process.env.PORT ?? 8080);
const ADLINE_URL = process.env.ADLINE_URL ?? 'http://localhost:3000';
// The key stays on the server, read from the environment: never in client code or a repository.
const ADLINE_API_KEY = process.env.ADLINE_API_KEY;

if (!ADLINE_API_KEY) console.warn('ADLINE_API_KEY is not set: replies will carry no ads');
const adline = ADLINE_API_KEY
  ? createAdline({
      url: ADLINE_URL,
      apiKey: ADLINE_API_KEY,
      onError: (error) => console.warn(`no ad: ${error.message}`),
    })
  : { fetchAd: async () => null };

createChatServer({ adline, model: createCannedModel() }).listen(PORT, () => {
  console.log(`publisher backend on http://localhost:${PORT}, ads from ${ADLINE_URL}`);
});
