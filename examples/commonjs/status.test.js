// A CommonJS project: require() gets the package's CommonJS build (the `require` condition of its
// exports), no --experimental-vm-modules and no dynamic import needed.
const assert = require('node:assert/strict');
const { after, before, test } = require('node:test');
const { startMockServer } = require('creator-commerce-mock');

let mock;
let token;

before(async () => {
  mock = await startMockServer({ clock: 'frozen', seed: 7 });
  const { api_key } = await mock.admin.accounts.create({ plan: 'paid' });
  token = api_key.token;
});

after(() => mock.close());

test('a write is validated as the spec says', async () => {
  const res = await fetch(`${mock.apiUrl}/web/crawl`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: 5 }),
  });
  assert.equal(res.status, 422);
  assert.equal((await res.json()).error.code, 'validation_failed');
});
