/**
 * The relative links of Markdown pages, and GitHub's anchors of their headings: what the link
 * test (test/consumer/readme.test.ts) checks from the repository and from the packed package.
 */
import { dirname, join, normalize } from 'node:path'

export interface Link {
  /** The page the link is on, e.g. `docs/recipes/vite.md`. */
  page: string
  /** The file it leads to, from the root (`docs/browser.md`), or the page itself for `#anchor`. */
  file: string
  /** The anchor, without `#`, or `''`. */
  anchor: string
  /** As written. */
  target: string
}

/** Text outside fenced code blocks and inline code: where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

/** Every relative link (`[text](target)` or `![alt](target)`) of a page; web and mail links aside. */
export function relativeLinks(page: string, text: string): Link[] {
  const links: Link[] = []
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue
    const [path = '', anchor = ''] = target.split('#')
    const file = path === '' ? page : normalize(join(dirname(page), decodeURIComponent(path)))
    links.push({ page, file, anchor, target })
  }
  return links
}

/**
 * The anchors GitHub gives a page's headings (`## A local HTTPS server (curl)` ->
 * `a-local-https-server-curl`).
 */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '')
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count ? `${slug}-${count}` : slug)
  }
  return anchors
}
