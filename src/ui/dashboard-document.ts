/**
 * The dashboard's one HTML document (contract §4.4), built once from the generated assets: the style
 * and the script inlined, allowed by their hashes in a Content-Security-Policy that lets the page
 * talk to its own origin only. "No request leaves the sandbox" then holds by construction: the page
 * names no other host, and the browser would refuse one if it did.
 */
import { createHash } from 'node:crypto';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLE } from './dashboard-assets.generated.js';

function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

// An inline script ends at the first `</script`, wherever it stands: the bundle must not hold one.
if (/<\/script/i.test(DASHBOARD_SCRIPT) || /<\/style/i.test(DASHBOARD_STYLE)) {
  throw new Error('the dashboard assets contain a closing tag: they cannot be inlined (src/ui/dashboard-assets.generated.ts)');
}

export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src ${hashSource(DASHBOARD_SCRIPT)}`,
  `style-src ${hashSource(DASHBOARD_STYLE)}`,
  "connect-src 'self'",
  // The empty icon below: without it the browser asks for /favicon.ico.
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="referrer" content="no-referrer">',
  '<title>creator-commerce-mock dashboard</title>',
  '<link rel="icon" href="data:,">',
  `<style>${DASHBOARD_STYLE}</style>`,
  '</head>',
  '<body>',
  '<noscript>The dashboard needs JavaScript.</noscript>',
  '<div id="app"></div>',
  `<script>${DASHBOARD_SCRIPT}</script>`,
  '</body>',
  '</html>',
  '',
].join('\n');
