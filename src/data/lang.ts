/** The languages TMaps answers in (`lang` / `language`): French by default, English, Arabic. */
export const LANGS = ['fr', 'en', 'ar'] as const
export type Lang = (typeof LANGS)[number]

/** A name in each of them. */
export type Names = Record<Lang, string>
