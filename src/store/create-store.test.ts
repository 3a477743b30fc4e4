import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createStore } from './create-store.ts'

const at = '2026-01-01T00:00:00.000Z'

it('keeps a key’s linked domains sorted through any links and unlinks, as a full sort would', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.tuple(
          fc.boolean(),
          fc.constantFrom('b.tn', 'a.tn', 'localhost', 'z.tn', '127.0.0.1', 'A.tn', 'é.tn'),
        ),
        {
          maxLength: 40,
        },
      ),
      async (ops) => {
        const store = createStore()
        await store.keys.create({
          id: 'k',
          name: 'K',
          value: `ak_${'0'.repeat(32)}`,
          status: 'enabled',
          createdAt: at,
          updatedAt: at,
        })
        const entry = store.byId.get('k')!
        for (const [add, hostname] of ops) {
          const linked = entry.domains.has(hostname)
          if (add && !linked) await store.links.create({ keyId: 'k', hostname, createdAt: at })
          if (!add && linked) store.links.delete((q) => q.where({ keyId: 'k', hostname }))
          expect(entry.linked).toEqual([...entry.domains].sort())
        }
      },
    ),
  )
})

it('changes a key’s record in place of the old one, keeping its links and its place among the keys', async () => {
  const store = createStore()
  for (const id of ['a', 'b', 'c'])
    await store.keys.create({
      id,
      name: id,
      value: `ak_${id.repeat(32)}`,
      status: 'enabled',
      createdAt: at,
      updatedAt: at,
    })
  await store.links.create({ keyId: 'b', hostname: 'localhost', createdAt: at })
  const changed = await store.changeKey('b', { status: 'disabled' })
  expect(changed.status).toBe('disabled')
  expect(store.keyRecords().map((k) => [k.id, k.status])).toEqual([
    ['a', 'enabled'],
    ['b', 'disabled'],
    ['c', 'enabled'],
  ])
  expect(store.byValue.get(`ak_${'b'.repeat(32)}`)?.linked).toEqual(['localhost'])
  await expect(store.changeKey('nope', { status: 'disabled' })).rejects.toThrow(/not in the store/)
})
