/**
 * The web the crawler sees: a made-up site per origin, generated with seeded faker. Everything about
 * a page (its status, its links, its title and markdown) is a function of the sandbox seed and the
 * page's URL alone, never of global state or of the order of requests; so two sandboxes with the
 * same seed serve the same site, and a crawl with a larger `max_pages` sees the same pages plus more.
 *
 * The shape of a site: the home page links to 3-5 sections (`/blog`, `/courses`, ...); every page
 * links to the home page and the sections (the navigation) and to its own sub-pages, fewer the deeper
 * it lies, none below four path segments. About one sub-page in sixteen is a broken link (404).
 */
import type { Faker } from '@faker-js/faker';
import { seededSiteFaker } from './site-faker.js';

export interface SitePage {
  url: string;
  status_code: number;
  /** Absolute URLs this page links to, navigation first, in the order they appear. */
  links: string[];
}

export interface RenderedPage extends SitePage {
  title: string;
  markdown: string;
}

const SECTIONS = ['blog', 'courses', 'products', 'community', 'newsletter', 'about', 'pricing', 'help', 'podcast', 'events'];
const MAX_SEGMENTS = 4;
const BROKEN_LINK_ODDS = 16;

// The sites' English instance (site-faker.ts: faker's draws, seeded ~10 times faster), re-seeded
// before every use. Generation is synchronous, so no other use can interleave between a seed and
// the draws that follow it.
function seeded(...parts: string[]): Faker {
  return seededSiteFaker(...parts);
}

interface SiteModel {
  origin: string;
  name: string;
  /** Absolute URLs of the home page and the sections. */
  navigation: string[];
}

function siteModel(seed: string, origin: string): SiteModel {
  const f = seeded(seed, 'site', origin);
  const name = f.company.name();
  const sections = f.helpers.arrayElements(SECTIONS, { min: 3, max: 5 });
  return { origin, name, navigation: [`${origin}/`, ...sections.map((section) => `${origin}/${section}`)] };
}

function segments(url: URL): string[] {
  return url.pathname.split('/').filter(Boolean);
}

/** Percent-decoding that leaves a malformed escape (`%E0`) as written instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `intro-to-pricing` -> `Intro To Pricing`. */
function humanize(slug: string): string {
  return safeDecode(slug)
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** A sub-page's path segment, like a post or product title: `monetize-strategic-markets`. */
function pageSlug(f: Faker): string {
  const name = f.datatype.boolean() ? f.company.buzzPhrase() : f.commerce.productName();
  return f.helpers.slugify(name).toLowerCase();
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The site's pages, by URL; each answers the same whoever asks, as often as asked. */
export class Site {
  private readonly model: SiteModel;
  private readonly pages = new Map<string, SitePage>();

  constructor(
    private readonly seed: string,
    origin: string,
  ) {
    this.model = siteModel(seed, origin);
  }

  /** A page; `isEntry` pages (the crawl's start) are never broken. */
  page(url: string, isEntry = false): SitePage {
    const key = `${isEntry ? 'entry' : 'link'} ${url}`;
    let page = this.pages.get(key);
    if (!page) this.pages.set(key, (page = this.describe(url, isEntry)));
    return page;
  }

  private describe(url: string, isEntry: boolean): SitePage {
    const parsed = new URL(url);
    const depth = segments(parsed).length;
    const isNavigation = this.model.navigation.includes(url);
    const f = seeded(this.seed, 'page', url);
    if (!isEntry && !isNavigation && f.number.int({ min: 1, max: BROKEN_LINK_ODDS }) === 1) {
      return { url, status_code: 404, links: this.model.navigation.filter((link) => link !== url) };
    }
    let children: string[] = [];
    if (depth === 0) {
      children = this.model.navigation.slice(1);
    } else if (depth < MAX_SEGMENTS) {
      const count = f.number.int({ min: Math.max(0, 3 - depth), max: 7 - depth });
      const base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
      const slugs = new Set<string>();
      for (let i = 0; i < count; i++) slugs.add(pageSlug(f));
      children = [...slugs].map((slug) => `${base}/${slug}`);
    }
    const links = [...new Set([...this.model.navigation, ...children])].filter((link) => link !== url);
    return { url, status_code: 200, links };
  }

  /** Title and markdown of a page; the markdown links to exactly the page's `links`. */
  render(page: SitePage): RenderedPage {
    const parsed = new URL(page.url);
    const last = segments(parsed).at(-1);
    const anchor = (link: string) => {
      const slug = segments(new URL(link)).at(-1);
      return slug === undefined ? 'Home' : humanize(slug);
    };
    const linkList = page.links.map((link) => `- [${anchor(link)}](${link})`).join('\n');
    if (page.status_code === 404) {
      const title = `Page not found | ${this.model.name}`;
      const markdown = `# Page not found\n\nThe page you are looking for does not exist or has moved.\n\n${linkList}\n`;
      return { ...page, title, markdown };
    }
    const f = seeded(this.seed, 'content', page.url);
    const heading = last === undefined ? this.model.name : humanize(last);
    const title = last === undefined ? `${this.model.name} | ${f.company.catchPhrase()}` : `${heading} | ${this.model.name}`;
    const paragraph = () => sentence(`${f.hacker.phrase()} ${f.commerce.productDescription().replace(/\.$/, '')}.`);
    const bullets = Array.from({ length: f.number.int({ min: 2, max: 4 }) }, () => `- ${f.company.catchPhrase()}`).join('\n');
    const markdown = [
      `# ${heading}`,
      paragraph(),
      `## ${humanize(f.helpers.slugify(f.company.buzzPhrase()))}`,
      paragraph(),
      bullets,
      '## Links',
      linkList,
    ].join('\n\n');
    return { ...page, title, markdown: `${markdown}\n` };
  }
}
