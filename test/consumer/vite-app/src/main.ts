import 'leaflet/dist/leaflet.css'
import './style.css'
import * as L from 'leaflet'
import { title } from './title.ts'

/** The app's own TMaps key, from `.env`: the same code calls the real TMaps in production. */
const apiKey = import.meta.env.VITE_TMAPS_API_KEY

const heading = document.querySelector<HTMLHeadingElement>('#title')!
heading.textContent = title
import.meta.hot?.accept('./title.ts', (next) => {
  if (next) heading.textContent = next.title
})

const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${apiKey}`)
document.querySelector('#status')!.textContent = String(response.status)
document.querySelector('#body')!.textContent = await response.text()

const map = L.map('map').setView([34.74, 10.76], 8)
L.tileLayer(`https://tiles.tmaps.tn/r-tile/{z}/{x}/{y}?api_key=${apiKey}`, {
  maxZoom: 18,
  attribution: '© TMaps · © OpenStreetMap contributors', // the mock's tiles are OSM-derived (ODbL)
}).addTo(map)
