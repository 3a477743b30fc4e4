import { describe, expect, it } from 'vitest'
import { poiTowns, townPlaces } from './pois.ts'
import { worldFor } from './world.ts'

const places = (town: ReturnType<typeof poiTowns>[number]) => townPlaces(worldFor('tmaps'), town)

const largest = poiTowns().slice(0, 40)
const villages = poiTowns()
  .filter((t) => !t.pop)
  .slice(0, 300)

describe('generated places read as a Tunisian would expect', () => {
  it('never repeats a name within a town: chains and stations are named by their part of town', () => {
    for (const town of largest) {
      const names = places(town).map((p) => p.name.fr)
      expect(new Set(names).size, town.name).toBe(names.length)
    }
    const tunis = places(poiTowns()[0]!).map((p) => p.name.fr)
    expect(tunis.filter((n) => n.startsWith('Station de louage')).length).toBeGreaterThan(1)
    expect(tunis.filter((n) => n.startsWith('Station de louage')).every((n) => /Tunis( \w+)?$/.test(n))).toBe(
      true,
    )
  })

  it('writes French as French does: d’ before a vowel, du for Le, no "de Le" or "de El"', () => {
    for (const town of [...largest, ...villages]) {
      for (const { name } of places(town)) {
        expect(name.fr, town.name).not.toMatch(/\bde (?:[AEIOUÉÈÎ]|Le |Les )/)
        // Arabic: no preposition glued to a Latin word.
        expect(name.ar, town.name).not.toMatch(/ب[A-Za-z]/)
      }
    }
  })

  it('gives a village a grocery, a café, a mosque, not a pizzeria, a pharmacy or a "Grande Mosquée"', () => {
    const allowed = new Set(['shopping', 'cafe', 'mosque', 'place_of_worship', 'school', 'education'])
    for (const town of villages) {
      const pois = places(town)
      expect(pois.length, town.name).toBeLessThanOrEqual(6)
      for (const p of pois) {
        expect(allowed.has(p.category), `${town.name}: ${p.name.fr}`).toBe(true)
        expect(p.name.fr).not.toMatch(/Grande Mosquée|Pizzeria|Fast-food|Salon de thé/)
      }
    }
  })

  it('lines a resort’s hotel zone with hotels: Midoun (Djerba), Hammamet, El Kantaoui', () => {
    for (const name of ['Midoun', 'Hammamet', 'Port el Kantaoui', 'Houmt El Souk']) {
      const town = poiTowns().find((t) => t.name === name)!
      const hotels = places(town).filter((p) => p.category === 'hotel')
      expect(hotels.length, name).toBeGreaterThanOrEqual(8)
    }
    const inland = places(poiTowns().find((t) => t.name === 'Kasserine')!).filter(
      (p) => p.category === 'hotel',
    )
    expect(inland.length).toBeLessThan(8)
  })

  it('keeps pharmacies open all night few: one night pharmacy in a town of 20,000 or more, none below', () => {
    for (const town of [...largest, ...villages]) {
      const night = places(town).filter((p) => p.category === 'pharmacy' && p.openingHours === '24/7')
      expect(night.length, town.name).toBe((town.pop ?? 0) >= 20_000 ? 1 : 0)
    }
  })
})
