import { describe, expect, it } from 'vitest'
import { inPlaceAr, ofPlace } from './french.ts'

describe('ofPlace: "de" before a place name, as French writes it', () => {
  it.each([
    ['Ariana', "d'Ariana"],
    ['El Ala', "d'El Ala"],
    ['Ennasr', "d'Ennasr"],
    ['Oued Ellil', "d'Oued Ellil"],
    ['Île de Djerba', "d'Île de Djerba"],
    ['Le Kef', 'du Kef'],
    ['Le Bardo', 'du Bardo'],
    ['Les Andalous', 'des Andalous'],
    ["L'Ariana", "de l'Ariana"],
    ['La Marsa', 'de La Marsa'],
    ['Tunis', 'de Tunis'],
    ['Hammamet', 'de Hammamet'],
  ])('%s -> %s', (name, expected) => {
    expect(ofPlace(name)).toBe(expected)
  })
})

describe('inPlaceAr: "in" before a place name, as Arabic writes it', () => {
  it('joins ب to an Arabic name and writes في before a Latin one', () => {
    expect(inPlaceAr('صفاقس')).toBe('بصفاقس')
    expect(inPlaceAr('Douar Ouled Messaoud')).toBe('في Douar Ouled Messaoud')
  })
})
