import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/** A key's card in the playground's console. */
export const keyCard = (page: Page, name: string) =>
  page.locator(`[data-testid="key"][data-key-name="${name}"]`)

/** Sends the composer's request with a key and a caller, as a person would; returns status and reason. */
export async function send(page: Page, keyName: string, caller = 'This page (fetch)') {
  const seqOf = async () =>
    (await page.getByTestId('result').count()) === 0
      ? 0
      : Number(await page.getByTestId('result').getAttribute('data-seq'))
  const before = await seqOf()
  await selectKey(page, 'API key', keyName)
  await page.getByLabel(caller).check()
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  // The answer shown is this request's (the log's sequence number moved on). The mock answers in
  // the page, after the map's tiles it is still drawing: allow for them.
  await expect.poll(seqOf, { timeout: 10_000 }).toBeGreaterThan(before)
  return {
    status: Number(await page.getByTestId('result-status').textContent()),
    reason: (await page.getByTestId('result-reason').textContent()) ?? '',
  }
}

/** Picks a key by its name in a key select (its options read "name · prefix… · status"). */
export async function selectKey(page: Page, label: string, keyName: string) {
  const select = page.getByLabel(label, { exact: true })
  const option = select.locator('option', { hasText: `${keyName} ·` })
  await select.selectOption((await option.getAttribute('value'))!)
}
