import type { Meta, StoryObj } from '@storybook/preact-vite'
import { HttpResponse, http } from 'msw'
import { expect, waitFor } from 'storybook/test'
import { scenarios } from 'tmaps-mock'
import { type TmapsStoryParameters, tmapsOf } from 'tmaps-mock/storybook'
import { PlaceSearch } from './PlaceSearch.tsx'

const meta = {
  title: 'PlaceSearch',
  // The story's key comes from its TMaps mock (tmapsLoader in .storybook/preview.ts).
  render: (_args, context) => <PlaceSearch apiKey={tmapsOf(context).key} />,
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/** Searches "Sfax" as a user does. */
const searchSfax: Story['play'] = async ({ canvas, userEvent }) => {
  await userEvent.type(canvas.getByRole('searchbox', { name: 'Place' }), 'Sfax')
  await userEvent.click(canvas.getByRole('button', { name: 'Search' }))
}

export const Works: Story = {
  play: async (context) => {
    await searchSfax(context)
    const places = await context.canvas.findByRole('list', { name: 'Places' }, { timeout: 15_000 })
    await expect(places).toHaveTextContent('3000 Sfax, Tunisie')
    await waitFor(
      () =>
        expect(context.canvasElement.querySelectorAll('img.leaflet-tile-loaded').length).toBeGreaterThan(3),
      { timeout: 10_000 },
    )
  },
}

export const KeyDisabled: Story = {
  name: 'Key disabled (401)',
  parameters: { tmaps: { keys: [{ name: 'Web', status: 'disabled' }] } satisfies TmapsStoryParameters },
  play: async (context) => {
    await searchSfax(context)
    await expect(
      await context.canvas.findByText('API key refused (401)', {}, { timeout: 15_000 }),
    ).toBeVisible()
    await expect(await context.canvas.findByText(/Map tiles refused/, {}, { timeout: 15_000 })).toBeVisible()
  },
}

export const DomainNotAuthorized: Story = {
  name: 'Domain not authorized (403)',
  parameters: {
    tmaps: { keys: [{ name: 'Shop', domains: ['shop.example.tn'] }] } satisfies TmapsStoryParameters,
  },
  play: async (context) => {
    await searchSfax(context)
    await expect(
      await context.canvas.findByText('This site is not authorized (403)', {}, { timeout: 15_000 }),
    ).toBeVisible()
    await expect(await context.canvas.findByText(/Map tiles refused/, {}, { timeout: 15_000 })).toBeVisible()
  },
}

export const RateLimited: Story = {
  name: 'Rate limited (429)',
  parameters: {
    tmaps: { faults: [{ endpoint: '/geocoding/forward', status: 429 }] } satisfies TmapsStoryParameters,
  },
  play: async (context) => {
    await searchSfax(context)
    await expect(
      await context.canvas.findByText('Too many requests (429)', {}, { timeout: 15_000 }),
    ).toBeVisible()
  },
}

export const SlowNetwork: Story = {
  name: 'Slow network',
  parameters: {
    tmaps: { faults: [{ endpoint: '/geocoding/forward', delayMs: 2000 }] } satisfies TmapsStoryParameters,
  },
  play: async (context) => {
    await searchSfax(context)
    await expect(context.canvas.getByRole('status')).toHaveTextContent('Searching for “Sfax”…')
    const places = await context.canvas.findByRole('list', { name: 'Places' }, { timeout: 15_000 })
    await expect(places).toHaveTextContent('3000 Sfax, Tunisie')
  },
}

export const NoResults: Story = {
  name: 'No results (override)',
  parameters: {
    // mock.use for this story: the mock's own answer with no results, after the key and domain checks.
    tmaps: {
      use: [{ endpoint: 'geocoding/forward', resolver: scenarios.noResults() }],
    } satisfies TmapsStoryParameters,
  },
  play: async (context) => {
    await searchSfax(context)
    await expect(
      await context.canvas.findByText('No place matches “Sfax”.', {}, { timeout: 15_000 }),
    ).toBeVisible()
  },
}

export const KeyDisabledWithOverride: Story = {
  name: 'Key disabled, with an override (401)',
  parameters: {
    tmaps: {
      keys: [{ name: 'Web', status: 'disabled' }],
      // An override as data; it never answers a disabled key: the contract comes first.
      use: [{ endpoint: 'geocoding/forward', scenario: 'no-results' }],
    } satisfies TmapsStoryParameters,
  },
  play: async (context) => {
    await searchSfax(context)
    await expect(
      await context.canvas.findByText('API key refused (401)', {}, { timeout: 15_000 }),
    ).toBeVisible()
    const entries = tmapsOf(context).mock.log.entries()
    await expect(entries.find((e) => e.path === '/geocoding/forward')).toMatchObject({ status: 401 })
    await expect(entries.filter((e) => e.overridden)).toEqual([])
  },
}

/** A search that is in the recording (.storybook/tmaps.har.json): TMaps's recorded answer. */
export const Recorded: Story = {
  play: async (context) => {
    await context.userEvent.type(context.canvas.getByRole('searchbox', { name: 'Place' }), 'Kairouan')
    await context.userEvent.click(context.canvas.getByRole('button', { name: 'Search' }))
    const places = await context.canvas.findByRole('list', { name: 'Places' }, { timeout: 15_000 })
    await expect(places).toHaveTextContent('Grande Mosquée de Kairouan')
    const search = tmapsOf(context)
      .mock.log.entries()
      .find((e) => e.path === '/geocoding/forward')
    await expect(search?.source).toBe('replay')
  },
}

export const OwnHandler: Story = {
  name: 'Own answer (parameters.msw)',
  parameters: {
    // The story's own msw handlers win for what they match; the mock answers the rest (the tiles).
    msw: {
      handlers: [
        http.get('https://api.tmaps.tn/geocoding/forward', () =>
          HttpResponse.json({
            query: 'Sfax',
            results: [{ formatted: 'Café Diwan, Sfax', lat: 34.7406, lng: 10.7603, type: 'poi' }],
          }),
        ),
      ],
    },
  },
  play: async (context) => {
    await searchSfax(context)
    const places = await context.canvas.findByRole('list', { name: 'Places' })
    await expect(places).toHaveTextContent('Café Diwan, Sfax')
    await waitFor(
      () =>
        expect(context.canvasElement.querySelectorAll('img.leaflet-tile-loaded').length).toBeGreaterThan(3),
      { timeout: 10_000 },
    )
  },
}
