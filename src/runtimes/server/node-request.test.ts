import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { nodeRequestView } from './node-request.ts'

describe('nodeRequestView: headers as Headers.get reads them', () => {
  const view = (rawHeaders: string[]) =>
    nodeRequestView({ method: 'GET', rawHeaders } as unknown as IncomingMessage, 'https://api.tmaps.tn/', 10)

  it('finds a header whatever its case, and answers null when absent', () => {
    const headers = view(['Host', 'localhost', 'ORIGIN', 'https://app.tn', 'X-Long-Origin', 'x']).headers
    expect(headers.get('origin')).toBe('https://app.tn')
    expect(headers.get('referer')).toBeNull()
  })

  it('joins a repeated header with ", ", as fetch does in the MSW runtimes', () => {
    const raw = ['Referer', 'https://a.tn/', 'referer', 'https://b.tn/']
    expect(view(raw).headers.get('referer')).toBe(
      new Headers([raw.slice(0, 2), raw.slice(2)] as [string, string][]).get('referer'),
    )
  })
})
