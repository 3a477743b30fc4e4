import { useState } from 'preact/hooks'
import type { CreatedKey, KeyInfo } from '../src/console/create-console.ts'
import { parseDomainInput } from '../src/contract/hostname.ts'
import { type KeyAction, keyReach, nextKeyStatus } from '../src/contract/key-status.ts'
import type { PlaygroundMock } from './server-console.ts'
import { useAction } from './use-mock.ts'

const ACTIONS: KeyAction[] = ['disable', 'enable', 'revoke']
const LABEL: Record<KeyAction, string> = { disable: 'Disable', enable: 'Enable', revoke: 'Revoke' }

/** The console's API keys tab: list, create (value shown once), status actions, linked domains. */
export function KeysPanel({ tmaps }: { tmaps: PlaygroundMock }) {
  const keys = tmaps.console.listKeys()
  const domains = tmaps.console.listDomains().map((d) => d.hostname)
  const [error, act] = useAction()
  const [created, setCreated] = useState<CreatedKey | null>(null)
  const [name, setName] = useState('')
  const [copied, setCopied] = useState(false)

  const create = async (event: Event) => {
    event.preventDefault()
    const made = async () => setCreated(await tmaps.console.createKey({ name: name.trim() || 'New key' }))
    if (await act(made)) {
      setCopied(false)
      setName('')
    }
  }

  return (
    <section aria-labelledby="keys-title" class="panel keys console">
      <h2 id="keys-title">API keys</h2>
      <form onSubmit={create} class="row">
        <label for="new-key-name" class="visually-hidden">
          New key name
        </label>
        <input
          id="new-key-name"
          value={name}
          placeholder="Key name"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Create key</button>
      </form>
      {created && (
        <div class="notice" role="status" data-testid="created-key">
          <p>
            Key <strong>{created.name}</strong> created. Copy its value now: like the real console, the
            playground shows it only once.
          </p>
          <p class="row">
            <code class="secret">{created.value}</code>
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard?.writeText(created.value).catch(() => undefined)
                setCopied(true)
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </p>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ul class="cards">
        {keys.map((key) => (
          <KeyCard key={key.id} info={key} domains={domains} tmaps={tmaps} act={act} />
        ))}
      </ul>
    </section>
  )
}

function KeyCard({
  info,
  domains,
  tmaps,
  act,
}: {
  info: KeyInfo
  domains: string[]
  tmaps: PlaygroundMock
  act: (run: () => Promise<unknown>) => Promise<boolean>
}) {
  const [toLink, setToLink] = useState('')
  const linkable = domains.filter((d) => !info.domains.includes(d))
  // The domain picked, while it can still be linked (linked since, elsewhere too: "+ domain…" again).
  const picked = linkable.includes(toLink) ? toLink : ''
  const refused = ACTIONS.filter((a) => !info.actions.includes(a))
    .map((a) => {
      const next = nextKeyStatus(info.status, a)
      return next.ok ? null : `${LABEL[a]} is not offered: ${next.reason}.`
    })
    .filter((r): r is string => r !== null && !r.includes('already'))
  const selectId = `link-${info.id}`
  const toggle = info.actions.includes('disable')
    ? 'disable'
    : info.actions.includes('enable')
      ? 'enable'
      : null
  const revoke = () => {
    // Revocation is final: a misclick must not do it.
    if (
      window.confirm(
        `Revoke the key “${info.name}”? Revocation is final: it can never be enabled again, and every request with it will be refused.`,
      )
    ) {
      void act(() => tmaps.console.revokeKey(info.id))
    }
  }
  return (
    <li class={`card key-card status-${info.status}`} data-testid="key" data-key-name={info.name}>
      <div class="row key-head">
        {/* The status as a switch (enabled / disabled); a revoked key has none: revocation is final. */}
        {toggle ? (
          <button
            type="button"
            role="switch"
            class="switch"
            aria-checked={info.status === 'enabled'}
            aria-label={`Enabled: ${info.name}`}
            onClick={() =>
              act(() =>
                toggle === 'disable' ? tmaps.console.disableKey(info.id) : tmaps.console.enableKey(info.id),
              )
            }
          />
        ) : null}
        <strong class="key-name">{info.name}</strong>
        <code class="muted small" title={`created ${info.createdAt.slice(0, 10)}`}>
          {info.prefix}…
        </code>
        <span class={`badge ${info.status}`} data-testid="status">
          {info.status}
        </span>
      </div>
      <p class="small muted" data-testid="reach">
        Works: {keyReach(info.status, info.domains)}
      </p>
      <div class="row key-domains">
        <ul class="chips" aria-label={`Domains linked to ${info.name}`}>
          {info.domains.length === 0 && <li class="muted small">no domain</li>}
          {info.domains.map((d) => (
            <li key={d} class="chip">
              <span class="chip-name" title={d}>
                {d}
              </span>
              {info.status !== 'revoked' && (
                <button
                  type="button"
                  aria-label={`Unlink ${d} from ${info.name}`}
                  onClick={() => act(() => tmaps.console.unlinkDomain(info.id, d))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        {info.status !== 'revoked' && linkable.length > 0 && (
          <div class="row key-link">
            <label for={selectId} class="visually-hidden">
              Link a domain
            </label>
            <select
              id={selectId}
              value={picked}
              onChange={(e) => setToLink((e.target as HTMLSelectElement).value)}
            >
              <option value="">+ domain…</option>
              {linkable.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
            <button
              type="button"
              disabled={picked === ''}
              onClick={async () => {
                if (await act(() => tmaps.console.linkDomain(info.id, picked))) setToLink('')
              }}
            >
              Link
            </button>
          </div>
        )}
        {info.actions.includes('revoke') && (
          <button type="button" class="danger" onClick={revoke}>
            Revoke
          </button>
        )}
        {refused.length > 0 && (
          <details class="why muted small">
            <summary>Why not every action</summary>
            {refused.map((reason) => (
              <p key={reason}>{reason}</p>
            ))}
          </details>
        )}
      </div>
    </li>
  )
}

/** The console's Authorized Domains tab: add with instant validation, link from the domain side. */
export function DomainsPanel({ tmaps }: { tmaps: PlaygroundMock }) {
  const domains = tmaps.console.listDomains()
  const keys = tmaps.console.listKeys().filter((k) => k.status !== 'revoked')
  const [input, setInput] = useState('')
  /** The domain added last: said under the field, its card scrolled into view. */
  const [added, setAdded] = useState<string | null>(null)
  const [error, act] = useAction()
  const check = input.trim() === '' ? null : parseDomainInput(input)

  const add = async (event: Event) => {
    event.preventDefault()
    if (!check?.ok || !(await act(() => tmaps.console.addDomain(check.hostname)))) return
    setInput('')
    setAdded(check.hostname)
    requestAnimationFrame(() =>
      document
        .querySelector(`[data-domain="${CSS.escape(check.hostname)}"]`)
        ?.scrollIntoView({ block: 'nearest' }),
    )
  }

  return (
    <section aria-labelledby="domains-title" class="panel domains console">
      <h2 id="domains-title">Authorized domains</h2>
      <form onSubmit={add} class="row">
        <label for="new-domain" class="visually-hidden">
          Domain
        </label>
        <input
          id="new-domain"
          value={input}
          placeholder="app.example.tn"
          aria-describedby="domain-check"
          aria-invalid={check?.ok === false}
          onInput={(e) => {
            setInput((e.target as HTMLInputElement).value)
            setAdded(null)
          }}
        />
        <button type="submit" disabled={!check?.ok}>
          Add
        </button>
      </form>
      <p id="domain-check" class={check?.ok === false ? 'error small' : 'muted small'} aria-live="polite">
        {check === null
          ? added
            ? `Added ${added}: link it to a key on its card.`
            : 'A hostname: no scheme, port, path or wildcard; localhost and 127.0.0.1 are hosts like any other.'
          : check.ok
            ? `Will add ${check.hostname}.`
            : check.error}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ul class="cards">
        {domains.map((domain) => {
          const unlinked = keys.filter((k) => !domain.keys.some((l) => l.id === k.id))
          const selectId = `link-key-${domain.hostname}`
          return (
            <li
              key={domain.hostname}
              class="card domain-card"
              data-testid="domain"
              data-domain={domain.hostname}
            >
              <div class="row spread">
                <strong>{domain.hostname}</strong>
                <button
                  type="button"
                  class="danger small"
                  aria-label={`Remove ${domain.hostname}`}
                  title={`Remove ${domain.hostname}`}
                  onClick={() => act(() => tmaps.console.removeDomain(domain.hostname))}
                >
                  Remove
                </button>
              </div>
              <ul class="chips" aria-label={`Keys linked to ${domain.hostname}`}>
                {domain.keys.length === 0 && <li class="muted small">no key</li>}
                {domain.keys.map((k) => (
                  <li key={k.id} class="chip">
                    <span class="chip-name" title={k.name}>
                      {k.name}
                    </span>
                    {k.status !== 'revoked' && (
                      <button
                        type="button"
                        aria-label={`Unlink ${k.name} from ${domain.hostname}`}
                        onClick={() => act(() => tmaps.console.unlinkDomain(k.id, domain.hostname))}
                      >
                        ×
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {unlinked.length > 0 && (
                <form
                  class="row"
                  onSubmit={(e) => {
                    e.preventDefault()
                    const id = new FormData(e.target as HTMLFormElement).get('key') as string
                    if (id) void act(() => tmaps.console.linkDomain(id, domain.hostname))
                  }}
                >
                  <label for={selectId} class="visually-hidden">
                    Link a key
                  </label>
                  <select id={selectId} name="key">
                    <option value="">+ key…</option>
                    {unlinked.map((k) => (
                      <option key={k.id} value={k.id}>
                        {k.name}
                      </option>
                    ))}
                  </select>
                  <button type="submit">Link</button>
                </form>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
