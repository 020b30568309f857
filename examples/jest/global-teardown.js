module.exports = async () => {
  await globalThis.commerceMock.close();
};
