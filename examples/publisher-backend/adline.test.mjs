// node --test examples/publisher-backend/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractKeywords, withAd } from './adline.mjs';

const ad = { advertisements: [{ campaign_markdown: '\n\n**Ad**' }] };

test('extracts distinct keywords without stop words', () => {
  assert.equal(
    extractKeywords('Which GPU should I rent to train my model? My GPU is old.'),
    'gpu, rent, train, model, old',
  );
  assert.equal(extractKeywords('is it?'), '');
});

test('appends the first ad to the reply', async () => {
  assert.equal(await withAd('Reply.', async () => ad), 'Reply.\n\n**Ad**');
});

test('answers the reply alone when there is no ad or the call fails', async () => {
  assert.equal(await withAd('Reply.', async () => null), 'Reply.');
  assert.equal(await withAd('Reply.', async () => ({ advertisements: [] })), 'Reply.');
  const errors = [];
  const failing = async () => {
    throw new Error('timeout');
  };
  assert.equal(await withAd('Reply.', failing, (e) => errors.push(e.message)), 'Reply.');
  assert.deepEqual(errors, ['timeout']);
});
