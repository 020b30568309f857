// Jest has no test attachments: when a test fails, this environment writes its tenant's HAR,
// findings and snapshot into .creator-commerce-mock/failures/<test file>/<test name>/ (set
// CCM_FAILURE_DIR to move it), the folder a CI job keeps as an artifact (docs/test-runners.md).
// jest-circus tells an environment how each test ended (`test_done`, with its errors) after the
// test's afterEach hooks and before afterAll, which deletes the tenant; it waits for this handler.
const { TestEnvironment } = require('jest-environment-node');
const { AdminClient, saveFailureArtifacts } = require('creator-commerce-mock');

/** `describe name test name`, as Jest prints it. */
function fullName(test) {
  const names = [];
  for (let block = test; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

class CommerceMockEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async handleTestEvent(event) {
    if (event.name !== 'test_done' || event.test.errors.length === 0) return;
    // Set by useTenant() (tenant.js) in the test file's global.
    const tenant = this.global.commerceMockTenant;
    if (!tenant?.account) return;
    const folder = await saveFailureArtifacts(new AdminClient(process.env.COMMERCE_MOCK_URL), tenant.account.id, {
      file: this.testPath,
      name: fullName(event.test),
    });
    process.stderr.write(`creator-commerce-mock: the failed test's HAR, findings and snapshot are in ${folder}\n`);
  }
}

module.exports = CommerceMockEnvironment;
