"""Demo asset universe: ~270 real ASX-listed companies, ETFs, managed funds and hybrids with their
real codes and names, filed under the demo classes (Cash, Australian Equities, International
Equities, Property, Fixed Income, Alternatives), types (Share, ETF, Managed Fund, Hybrid) and the
demo industry groups, each with 180 weekdays of closes and the derived last close and returns.

Prices are synthetic but plausible and deterministic: a random walk seeded by the code, scaled so
that the newest close sits at a realistic level for the stock; the dates end on the last weekday
on or before today. Dividend yields are indicative.

Idempotent: classes, types and groups are got or created by title (case-insensitive; the groups
through app.services.demo_industry_groups); an asset is only added when its code is not taken,
and only newly added assets get a price history. The marker is the last code of the list: once it
exists nothing is done. Bulk inserts: a couple of seconds on SQLite."""
from __future__ import annotations

import random
import zlib
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from itertools import count
from typing import Callable, NamedTuple, TypeVar

from sqlalchemy import insert
from sqlmodel import Session, SQLModel, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, AssetPrice, AssetType, IndustryGroup
from app.db.types import stored_id, utcnow
from app.services.assets import recompute_prices

TRADING_DAYS = 180

# class key -> title (Cash is the system class the migration seeds)
CLASSES = {
    "CASH": "Cash",
    "AE": "Australian Equities",
    "IE": "International Equities",
    "PR": "Property",
    "FI": "Fixed Income",
    "AL": "Alternatives",
}
TYPES = {"S": "Share", "E": "ETF", "M": "Managed Fund", "H": "Hybrid"}


class DemoGroup(NamedTuple):
    title: str  # the demo industry group's title (app.services.demo_industry_groups)
    color: str  # the colour of a group created here
    volatility: str  # daily, percent, for the random walk


GROUPS = {  # by group key
    "FIN": DemoGroup("Financials", "#3e63dd", "1.1"),
    "MAT": DemoGroup("Materials", "#ad7f58", "2.1"),
    "HC": DemoGroup("Health Care", "#e54666", "1.6"),
    "RE": DemoGroup("Real Estate", "#8e4ec6", "1.3"),
    "EN": DemoGroup("Energy", "#f76b15", "2.0"),
    "IT": DemoGroup("Information Technology", "#0090ff", "2.3"),
    "CD": DemoGroup("Consumer Discretionary", "#d6409f", "1.6"),
    "CS": DemoGroup("Consumer Staples", "#30a46c", "1.1"),
    "COM": DemoGroup("Communication Services", "#00a2c7", "1.2"),
    "UT": DemoGroup("Utilities", "#ffb224", "1.1"),
    "IND": DemoGroup("Industrials", "#12a594", "1.3"),
    "DIV": DemoGroup("Diversified (ETFs and funds)", "#8d8d86", "0.8"),
}

# (code, name, group, class, type, newest close, dividend yield %)
UNIVERSE: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    # ---- financials
    ("CBA", "Commonwealth Bank of Australia", "FIN", "AE", "S", "131.50", "3.6"),
    ("WBC", "Westpac Banking Corporation", "FIN", "AE", "S", "28.40", "5.3"),
    ("NAB", "National Australia Bank Limited", "FIN", "AE", "S", "36.20", "4.6"),
    ("ANZ", "ANZ Group Holdings Limited", "FIN", "AE", "S", "29.10", "5.7"),
    ("MQG", "Macquarie Group Limited", "FIN", "AE", "S", "205.30", "3.1"),
    ("BOQ", "Bank of Queensland Limited", "FIN", "AE", "S", "6.32", "6.5"),
    ("BEN", "Bendigo and Adelaide Bank Limited", "FIN", "AE", "S", "12.05", "5.3"),
    ("SUN", "Suncorp Group Limited", "FIN", "AE", "S", "17.60", "4.5"),
    ("IAG", "Insurance Australia Group Limited", "FIN", "AE", "S", "7.62", "3.6"),
    ("QBE", "QBE Insurance Group Limited", "FIN", "AE", "S", "18.10", "3.5"),
    ("ASX", "ASX Limited", "FIN", "AE", "S", "64.20", "3.5"),
    ("AMP", "AMP Limited", "FIN", "AE", "S", "1.32", "1.5"),
    ("CGF", "Challenger Limited", "FIN", "AE", "S", "6.70", "4.1"),
    ("MPL", "Medibank Private Limited", "FIN", "AE", "S", "3.82", "4.5"),
    ("NHF", "nib holdings limited", "FIN", "AE", "S", "6.20", "4.0"),
    ("PPT", "Perpetual Limited", "FIN", "AE", "S", "21.30", "5.0"),
    ("IFL", "Insignia Financial Ltd", "FIN", "AE", "S", "2.95", "0"),
    ("MFG", "Magellan Financial Group Ltd", "FIN", "AE", "S", "9.55", "7.0"),
    ("PNI", "Pinnacle Investment Management Group Limited", "FIN", "AE", "S", "19.40", "2.5"),
    ("HUB", "HUB24 Limited", "FIN", "AE", "S", "60.10", "0.7"),
    ("NWL", "Netwealth Group Limited", "FIN", "AE", "S", "25.30", "1.2"),
    ("ZIP", "Zip Co Limited", "FIN", "AE", "S", "2.52", "0"),
    ("JDO", "Judo Capital Holdings Limited", "FIN", "AE", "S", "1.42", "0"),
    ("MYS", "MyState Limited", "FIN", "AE", "S", "3.62", "6.4"),
    ("AUB", "AUB Group Limited", "FIN", "AE", "S", "33.10", "2.5"),
    ("SDF", "Steadfast Group Limited", "FIN", "AE", "S", "5.92", "2.9"),
    ("GQG", "GQG Partners Inc.", "FIN", "AE", "S", "2.52", "9.5"),
    ("EQT", "EQT Holdings Limited", "FIN", "AE", "S", "33.40", "3.3"),
    ("CCP", "Credit Corp Group Limited", "FIN", "AE", "S", "16.20", "2.8"),
    ("HLI", "Helia Group Limited", "FIN", "AE", "S", "4.52", "10.0"),
    ("PTM", "Platinum Asset Management Limited", "FIN", "AE", "S", "1.10", "9.0"),
    ("SOL", "Washington H. Soul Pattinson and Company Limited", "FIN", "AE", "S", "35.20", "2.7"),
    ("AFI", "Australian Foundation Investment Company Limited", "DIV", "AE", "S", "7.42", "3.6"),
    ("ARG", "Argo Investments Limited", "DIV", "AE", "S", "9.05", "3.9"),
    ("WAM", "WAM Capital Limited", "DIV", "AE", "S", "1.52", "10.0"),
    # ---- materials
    ("BHP", "BHP Group Limited", "MAT", "AE", "S", "44.20", "5.4"),
    ("RIO", "Rio Tinto Limited", "MAT", "AE", "S", "120.40", "5.5"),
    ("FMG", "Fortescue Ltd", "MAT", "AE", "S", "20.15", "8.0"),
    ("S32", "South32 Limited", "MAT", "AE", "S", "3.31", "2.8"),
    ("NST", "Northern Star Resources Ltd", "MAT", "AE", "S", "15.20", "1.7"),
    ("EVN", "Evolution Mining Limited", "MAT", "AE", "S", "4.82", "1.5"),
    ("NEM", "Newmont Corporation", "MAT", "AE", "S", "70.50", "1.5"),
    ("PLS", "Pilbara Minerals Limited", "MAT", "AE", "S", "2.81", "0"),
    ("MIN", "Mineral Resources Limited", "MAT", "AE", "S", "35.40", "0"),
    ("IGO", "IGO Limited", "MAT", "AE", "S", "5.32", "2.5"),
    ("LTR", "Liontown Resources Limited", "MAT", "AE", "S", "0.755", "0"),
    ("AMC", "Amcor plc", "MAT", "AE", "S", "15.55", "5.0"),
    ("ORI", "Orica Limited", "MAT", "AE", "S", "18.20", "2.6"),
    ("JHX", "James Hardie Industries plc", "MAT", "AE", "S", "50.30", "0"),
    ("BSL", "BlueScope Steel Limited", "MAT", "AE", "S", "20.10", "3.0"),
    ("IPL", "Incitec Pivot Limited", "MAT", "AE", "S", "3.02", "3.5"),
    ("LYC", "Lynas Rare Earths Limited", "MAT", "AE", "S", "7.52", "0"),
    ("SFR", "Sandfire Resources Limited", "MAT", "AE", "S", "10.45", "0"),
    ("CIA", "Champion Iron Limited", "MAT", "AE", "S", "6.02", "6.0"),
    ("DEG", "De Grey Mining Limited", "MAT", "AE", "S", "1.91", "0"),
    ("RMS", "Ramelius Resources Limited", "MAT", "AE", "S", "2.52", "2.0"),
    ("PRU", "Perseus Mining Limited", "MAT", "AE", "S", "2.92", "2.8"),
    ("GMD", "Genesis Minerals Limited", "MAT", "AE", "S", "2.31", "0"),
    ("CMM", "Capricorn Metals Ltd", "MAT", "AE", "S", "6.52", "0"),
    ("WAF", "West African Resources Limited", "MAT", "AE", "S", "1.82", "0"),
    ("BGL", "Bellevue Gold Limited", "MAT", "AE", "S", "1.12", "0"),
    ("RRL", "Regis Resources Limited", "MAT", "AE", "S", "2.62", "0"),
    ("ILU", "Iluka Resources Limited", "MAT", "AE", "S", "5.52", "0.8"),
    ("NIC", "Nickel Industries Limited", "MAT", "AE", "S", "0.855", "4.7"),
    ("SGM", "Sims Limited", "MAT", "AE", "S", "13.10", "2.5"),
    ("DRR", "Deterra Royalties Limited", "MAT", "AE", "S", "3.82", "7.5"),
    ("CXO", "Core Lithium Ltd", "MAT", "AE", "S", "0.105", "0"),
    ("VUL", "Vulcan Energy Resources Limited", "MAT", "AE", "S", "4.05", "0"),
    ("CHN", "Chalice Mining Limited", "MAT", "AE", "S", "1.32", "0"),
    ("ORA", "Orora Limited", "MAT", "AE", "S", "2.62", "5.0"),
    ("NUF", "Nufarm Limited", "MAT", "AE", "S", "3.82", "2.1"),
    ("EMR", "Emerald Resources NL", "MAT", "AE", "S", "3.82", "0"),
    ("ALK", "Alkane Resources Ltd", "MAT", "AE", "S", "0.605", "0"),
    ("GOR", "Gold Road Resources Limited", "MAT", "AE", "S", "1.92", "1.3"),
    ("OBM", "Ora Banda Mining Ltd", "MAT", "AE", "S", "0.755", "0"),
    ("WGX", "Westgold Resources Limited", "MAT", "AE", "S", "2.62", "1.0"),
    ("MGX", "Mount Gibson Iron Limited", "MAT", "AE", "S", "0.405", "0"),
    ("GRR", "Grange Resources Limited", "MAT", "AE", "S", "0.305", "6.0"),
    ("ADT", "Adriatic Metals PLC", "MAT", "AE", "S", "4.02", "0"),
    # ---- health care
    ("CSL", "CSL Limited", "HC", "AE", "S", "290.10", "1.4"),
    ("COH", "Cochlear Limited", "HC", "AE", "S", "300.20", "1.4"),
    ("RMD", "ResMed Inc.", "HC", "AE", "S", "36.10", "0.9"),
    ("SHL", "Sonic Healthcare Limited", "HC", "AE", "S", "27.20", "4.0"),
    ("RHC", "Ramsay Health Care Limited", "HC", "AE", "S", "42.30", "2.0"),
    ("FPH", "Fisher & Paykel Healthcare Corporation Limited", "HC", "AE", "S", "32.10", "1.3"),
    ("PME", "Pro Medicus Limited", "HC", "AE", "S", "190.50", "0.3"),
    ("TLX", "Telix Pharmaceuticals Limited", "HC", "AE", "S", "22.30", "0"),
    ("ANN", "Ansell Limited", "HC", "AE", "S", "31.20", "2.2"),
    ("EBO", "EBOS Group Limited", "HC", "AE", "S", "33.10", "2.8"),
    ("NAN", "Nanosonics Limited", "HC", "AE", "S", "3.22", "0"),
    ("PNV", "PolyNovo Limited", "HC", "AE", "S", "2.32", "0"),
    ("HLS", "Healius Limited", "HC", "AE", "S", "1.52", "0"),
    ("ACL", "Australian Clinical Labs Limited", "HC", "AE", "S", "3.02", "4.0"),
    ("MSB", "Mesoblast Limited", "HC", "AE", "S", "2.82", "0"),
    ("NEU", "Neuren Pharmaceuticals Limited", "HC", "AE", "S", "13.10", "0"),
    ("CU6", "Clarity Pharmaceuticals Ltd", "HC", "AE", "S", "7.02", "0"),
    ("SIG", "Sigma Healthcare Limited", "HC", "AE", "S", "2.82", "1.0"),
    ("REG", "Regis Healthcare Limited", "HC", "AE", "S", "6.52", "2.0"),
    ("IDX", "Integral Diagnostics Limited", "HC", "AE", "S", "2.82", "2.5"),
    ("CUV", "Clinuvel Pharmaceuticals Limited", "HC", "AE", "S", "15.10", "0.3"),
    ("IMM", "Immutep Limited", "HC", "AE", "S", "0.305", "0"),
    ("MVF", "Monash IVF Group Limited", "HC", "AE", "S", "1.32", "4.5"),
    # ---- real estate
    ("GMG", "Goodman Group", "RE", "PR", "S", "33.20", "0.9"),
    ("SCG", "Scentre Group", "RE", "PR", "S", "3.42", "5.1"),
    ("SGP", "Stockland", "RE", "PR", "S", "4.92", "5.3"),
    ("MGR", "Mirvac Group", "RE", "PR", "S", "2.22", "4.6"),
    ("GPT", "GPT Group", "RE", "PR", "S", "5.02", "4.8"),
    ("DXS", "Dexus", "RE", "PR", "S", "7.82", "6.1"),
    ("VCX", "Vicinity Centres", "RE", "PR", "S", "2.22", "5.4"),
    ("CHC", "Charter Hall Group", "RE", "PR", "S", "14.10", "3.2"),
    ("CLW", "Charter Hall Long WALE REIT", "RE", "PR", "S", "4.02", "6.5"),
    ("CQR", "Charter Hall Retail REIT", "RE", "PR", "S", "3.62", "6.8"),
    ("CIP", "Centuria Industrial REIT", "RE", "PR", "S", "3.22", "5.0"),
    ("COF", "Centuria Office REIT", "RE", "PR", "S", "1.32", "10.0"),
    ("NSR", "National Storage REIT", "RE", "PR", "S", "2.32", "4.8"),
    ("ARF", "Arena REIT", "RE", "PR", "S", "3.92", "4.5"),
    ("BWP", "BWP Trust", "RE", "PR", "S", "3.52", "5.2"),
    ("CMW", "Cromwell Property Group", "RE", "PR", "S", "0.425", "7.0"),
    ("HMC", "HMC Capital Limited", "RE", "PR", "S", "9.52", "1.3"),
    ("HDN", "HomeCo Daily Needs REIT", "RE", "PR", "S", "1.25", "6.8"),
    ("INA", "Ingenia Communities Group", "RE", "PR", "S", "5.02", "2.3"),
    ("LLC", "Lendlease Group", "RE", "PR", "S", "6.02", "2.5"),
    ("DXI", "Dexus Industria REIT", "RE", "PR", "S", "2.82", "6.0"),
    ("GOZ", "Growthpoint Properties Australia", "RE", "PR", "S", "2.42", "8.0"),
    ("RGN", "Region Group", "RE", "PR", "S", "2.22", "6.5"),
    ("WPR", "Waypoint REIT", "RE", "PR", "S", "2.42", "7.0"),
    ("ABG", "Abacus Group", "RE", "PR", "S", "1.15", "7.0"),
    ("ASK", "Abacus Storage King", "RE", "PR", "S", "1.20", "5.0"),
    ("CNI", "Centuria Capital Group", "RE", "PR", "S", "1.72", "6.0"),
    ("VAP", "Vanguard Australian Property Securities Index ETF", "RE", "PR", "E", "95.10", "3.5"),
    ("SLF", "SPDR S&P/ASX 200 Listed Property Fund", "RE", "PR", "E", "12.10", "3.6"),
    ("MVA", "VanEck Australian Property ETF", "RE", "PR", "E", "22.10", "4.2"),
    ("REIT", "VanEck FTSE International Property (Hedged) ETF", "RE", "PR", "E", "15.50", "3.5"),
    # ---- energy
    ("WDS", "Woodside Energy Group Ltd", "EN", "AE", "S", "27.10", "8.0"),
    ("STO", "Santos Limited", "EN", "AE", "S", "7.22", "5.5"),
    ("ALD", "Ampol Limited", "EN", "AE", "S", "30.10", "5.5"),
    ("VEA", "Viva Energy Group Limited", "EN", "AE", "S", "3.02", "6.0"),
    ("BPT", "Beach Energy Limited", "EN", "AE", "S", "1.35", "4.0"),
    ("KAR", "Karoon Energy Ltd", "EN", "AE", "S", "1.62", "3.0"),
    ("WHC", "Whitehaven Coal Limited", "EN", "AE", "S", "7.02", "3.5"),
    ("NHC", "New Hope Corporation Limited", "EN", "AE", "S", "4.62", "9.0"),
    ("YAL", "Yancoal Australia Ltd", "EN", "AE", "S", "6.22", "10.0"),
    ("PDN", "Paladin Energy Ltd", "EN", "AE", "S", "10.10", "0"),
    ("BOE", "Boss Energy Ltd", "EN", "AE", "S", "3.02", "0"),
    ("DYL", "Deep Yellow Limited", "EN", "AE", "S", "1.22", "0"),
    ("LOT", "Lotus Resources Limited", "EN", "AE", "S", "0.305", "0"),
    ("NXG", "NexGen Energy Ltd.", "EN", "AE", "S", "10.20", "0"),
    ("STX", "Strike Energy Limited", "EN", "AE", "S", "0.205", "0"),
    # ---- information technology
    ("XRO", "Xero Limited", "IT", "AE", "S", "150.20", "0"),
    ("WTC", "WiseTech Global Limited", "IT", "AE", "S", "110.30", "0.2"),
    ("NXT", "NEXTDC Limited", "IT", "AE", "S", "17.10", "0"),
    ("TNE", "Technology One Limited", "IT", "AE", "S", "25.30", "1.3"),
    ("MP1", "Megaport Limited", "IT", "AE", "S", "9.02", "0"),
    ("DTL", "Data#3 Limited", "IT", "AE", "S", "7.52", "3.6"),
    ("IRE", "IRESS Limited", "IT", "AE", "S", "9.52", "0"),
    ("APX", "Appen Limited", "IT", "AE", "S", "1.52", "0"),
    ("HSN", "Hansen Technologies Limited", "IT", "AE", "S", "5.02", "2.0"),
    ("TYR", "Tyro Payments Limited", "IT", "AE", "S", "0.905", "0"),
    ("SQ2", "Block, Inc.", "IT", "AE", "S", "100.20", "0"),
    ("PXA", "PEXA Group Limited", "IT", "AE", "S", "14.10", "0"),
    ("CDA", "Codan Limited", "IT", "AE", "S", "14.20", "1.8"),
    ("DDR", "Dicker Data Limited", "IT", "AE", "S", "9.02", "4.8"),
    ("GTK", "Gentrack Group Limited", "IT", "AE", "S", "10.10", "0"),
    ("RUL", "RPMGlobal Holdings Limited", "IT", "AE", "S", "2.82", "0"),
    ("AD8", "Audinate Group Limited", "IT", "AE", "S", "10.10", "0"),
    ("SDR", "SiteMinder Limited", "IT", "AE", "S", "6.02", "0"),
    ("BRN", "BrainChip Holdings Ltd", "IT", "AE", "S", "0.205", "0"),
    ("360", "Life360, Inc.", "IT", "AE", "S", "20.30", "0"),
    ("MAQ", "Macquarie Technology Group Limited", "IT", "AE", "S", "80.20", "0.5"),
    ("BVS", "Bravura Solutions Limited", "IT", "AE", "S", "1.32", "0"),
    # ---- consumer discretionary
    ("WES", "Wesfarmers Limited", "CD", "AE", "S", "70.20", "2.8"),
    ("ALL", "Aristocrat Leisure Limited", "CD", "AE", "S", "55.10", "1.2"),
    ("JBH", "JB Hi-Fi Limited", "CD", "AE", "S", "75.20", "3.5"),
    ("HVN", "Harvey Norman Holdings Limited", "CD", "AE", "S", "4.62", "5.5"),
    ("SUL", "Super Retail Group Limited", "CD", "AE", "S", "15.10", "5.0"),
    ("PMV", "Premier Investments Limited", "CD", "AE", "S", "32.10", "4.0"),
    ("LOV", "Lovisa Holdings Limited", "CD", "AE", "S", "32.20", "2.8"),
    ("TAH", "Tabcorp Holdings Limited", "CD", "AE", "S", "0.555", "3.0"),
    ("SGR", "The Star Entertainment Group Limited", "CD", "AE", "S", "0.205", "0"),
    ("FLT", "Flight Centre Travel Group Limited", "CD", "AE", "S", "18.10", "1.5"),
    ("WEB", "Web Travel Group Limited", "CD", "AE", "S", "5.02", "0"),
    ("ARB", "ARB Corporation Limited", "CD", "AE", "S", "38.20", "1.8"),
    ("BAP", "Bapcor Limited", "CD", "AE", "S", "5.02", "4.0"),
    ("DMP", "Domino's Pizza Enterprises Limited", "CD", "AE", "S", "32.10", "3.5"),
    ("CTD", "Corporate Travel Management Limited", "CD", "AE", "S", "13.10", "2.0"),
    ("IEL", "IDP Education Limited", "CD", "AE", "S", "15.10", "3.0"),
    ("KGN", "Kogan.com Ltd", "CD", "AE", "S", "5.02", "0"),
    ("NCK", "Nick Scali Limited", "CD", "AE", "S", "15.10", "5.0"),
    ("BRG", "Breville Group Limited", "CD", "AE", "S", "32.10", "1.1"),
    ("AX1", "Accent Group Limited", "CD", "AE", "S", "2.12", "6.0"),
    ("MYR", "Myer Holdings Limited", "CD", "AE", "S", "0.805", "5.0"),
    ("LNW", "Light & Wonder, Inc.", "CD", "AE", "S", "150.20", "0"),
    ("TPW", "Temple & Webster Group Ltd", "CD", "AE", "S", "12.10", "0"),
    ("UNI", "Universal Store Holdings Limited", "CD", "AE", "S", "6.52", "5.0"),
    ("ADH", "Adairs Limited", "CD", "AE", "S", "2.52", "5.0"),
    ("CKF", "Collins Foods Limited", "CD", "AE", "S", "8.02", "3.0"),
    ("GEM", "G8 Education Limited", "CD", "AE", "S", "1.32", "3.5"),
    ("PWH", "PWR Holdings Limited", "CD", "AE", "S", "9.02", "1.5"),
    ("HLO", "Helloworld Travel Limited", "CD", "AE", "S", "2.02", "4.0"),
    # ---- consumer staples
    ("WOW", "Woolworths Group Limited", "CS", "AE", "S", "32.10", "3.0"),
    ("COL", "Coles Group Limited", "CS", "AE", "S", "18.10", "3.7"),
    ("EDV", "Endeavour Group Limited", "CS", "AE", "S", "5.22", "4.0"),
    ("TWE", "Treasury Wine Estates Limited", "CS", "AE", "S", "11.50", "3.0"),
    ("A2M", "The a2 Milk Company Limited", "CS", "AE", "S", "6.22", "0"),
    ("MTS", "Metcash Limited", "CS", "AE", "S", "3.62", "6.0"),
    ("GNC", "GrainCorp Limited", "CS", "AE", "S", "8.52", "6.0"),
    ("ING", "Inghams Group Limited", "CS", "AE", "S", "3.32", "6.0"),
    ("ELD", "Elders Limited", "CS", "AE", "S", "7.52", "5.0"),
    ("BGA", "Bega Cheese Limited", "CS", "AE", "S", "5.02", "2.0"),
    ("AAC", "Australian Agricultural Company Limited", "CS", "AE", "S", "1.42", "0"),
    ("SHV", "Select Harvests Limited", "CS", "AE", "S", "4.02", "0"),
    ("RIC", "Ridley Corporation Limited", "CS", "AE", "S", "2.12", "4.5"),
    # ---- communication services
    ("TLS", "Telstra Group Limited", "COM", "AE", "S", "3.92", "4.6"),
    ("TPG", "TPG Telecom Limited", "COM", "AE", "S", "4.82", "3.8"),
    ("REA", "REA Group Ltd", "COM", "AE", "S", "230.10", "0.8"),
    ("CAR", "CAR Group Limited", "COM", "AE", "S", "36.20", "2.2"),
    ("SEK", "SEEK Limited", "COM", "AE", "S", "23.10", "1.8"),
    ("NWS", "News Corporation", "COM", "AE", "S", "42.10", "0.7"),
    ("NEC", "Nine Entertainment Co. Holdings Limited", "COM", "AE", "S", "1.32", "7.0"),
    ("SPK", "Spark New Zealand Limited", "COM", "AE", "S", "2.62", "8.0"),
    ("CNU", "Chorus Limited", "COM", "AE", "S", "7.52", "5.0"),
    ("SLC", "Superloop Limited", "COM", "AE", "S", "2.52", "0"),
    ("ABB", "Aussie Broadband Limited", "COM", "AE", "S", "3.62", "1.0"),
    ("OML", "oOh!media Limited", "COM", "AE", "S", "1.32", "5.0"),
    ("DHG", "Domain Holdings Australia Limited", "COM", "AE", "S", "3.02", "2.5"),
    ("SWM", "Seven West Media Limited", "COM", "AE", "S", "0.165", "0"),
    ("EVT", "EVT Limited", "COM", "AE", "S", "12.10", "3.0"),
    # ---- utilities
    ("ORG", "Origin Energy Limited", "UT", "AE", "S", "10.10", "5.0"),
    ("AGL", "AGL Energy Limited", "UT", "AE", "S", "10.50", "6.0"),
    ("APA", "APA Group", "UT", "AE", "S", "8.02", "7.5"),
    ("MCY", "Mercury NZ Limited", "UT", "AE", "S", "6.02", "4.0"),
    ("MEZ", "Meridian Energy Limited", "UT", "AE", "S", "5.52", "4.5"),
    ("CEN", "Contact Energy Limited", "UT", "AE", "S", "8.02", "5.5"),
    ("GNE", "Genesis Energy Limited", "UT", "AE", "S", "2.12", "7.0"),
    ("IFT", "Infratil Limited", "UT", "AE", "S", "10.50", "2.0"),
    # ---- industrials
    ("TCL", "Transurban Group", "IND", "AE", "S", "13.10", "4.6"),
    ("QAN", "Qantas Airways Limited", "IND", "AE", "S", "7.52", "0"),
    ("BXB", "Brambles Limited", "IND", "AE", "S", "17.10", "2.8"),
    ("CPU", "Computershare Limited", "IND", "AE", "S", "28.20", "3.0"),
    ("SVW", "Seven Group Holdings Limited", "IND", "AE", "S", "40.10", "1.5"),
    ("REH", "Reece Limited", "IND", "AE", "S", "27.10", "1.0"),
    ("QUB", "Qube Holdings Limited", "IND", "AE", "S", "3.82", "2.8"),
    ("AZJ", "Aurizon Holdings Limited", "IND", "AE", "S", "3.42", "5.5"),
    ("DOW", "Downer EDI Limited", "IND", "AE", "S", "5.32", "3.5"),
    ("MND", "Monadelphous Group Limited", "IND", "AE", "S", "14.10", "4.0"),
    ("CWY", "Cleanaway Waste Management Limited", "IND", "AE", "S", "2.82", "2.0"),
    ("ALQ", "ALS Limited", "IND", "AE", "S", "14.50", "2.5"),
    ("ALX", "Atlas Arteria", "IND", "AE", "S", "5.02", "8.0"),
    ("IPH", "IPH Limited", "IND", "AE", "S", "5.52", "6.5"),
    ("WOR", "Worley Limited", "IND", "AE", "S", "14.50", "3.5"),
    ("NWH", "NRW Holdings Limited", "IND", "AE", "S", "3.42", "4.0"),
    ("VNT", "Ventia Services Group Limited", "IND", "AE", "S", "4.32", "5.0"),
    ("GWA", "GWA Group Limited", "IND", "AE", "S", "2.42", "6.5"),
    ("SIQ", "Smartgroup Corporation Ltd", "IND", "AE", "S", "8.02", "6.0"),
    ("ASB", "Austal Limited", "IND", "AE", "S", "3.02", "0"),
    ("DRO", "DroneShield Limited", "IND", "AE", "S", "1.02", "0"),
    ("EOS", "Electro Optic Systems Holdings Limited", "IND", "AE", "S", "1.52", "0"),
    ("KLS", "Kelsian Group Limited", "IND", "AE", "S", "4.02", "3.5"),
    ("MMS", "McMillan Shakespeare Limited", "IND", "AE", "S", "15.10", "7.0"),
    ("SSM", "Service Stream Limited", "IND", "AE", "S", "1.42", "3.5"),
    ("AIA", "Auckland International Airport Limited", "IND", "AE", "S", "7.22", "2.0"),
    ("FBU", "Fletcher Building Limited", "IND", "AE", "S", "2.92", "0"),
    ("RWC", "Reliance Worldwide Corporation Limited", "IND", "AE", "S", "5.02", "2.5"),
    ("GNG", "GR Engineering Services Limited", "IND", "AE", "S", "2.32", "7.0"),
    ("SRG", "SRG Global Limited", "IND", "AE", "S", "1.12", "4.5"),
    # ---- hybrids (listed bank capital notes)
    ("CBAPK", "CommBank PERLS Capital Notes", "FIN", "FI", "H", "103.20", "6.4"),
    ("WBCPK", "Westpac Capital Notes", "FIN", "FI", "H", "102.80", "6.5"),
    ("NABPH", "NAB Capital Notes", "FIN", "FI", "H", "103.50", "6.3"),
    ("ANZPI", "ANZ Capital Notes", "FIN", "FI", "H", "102.40", "6.6"),
    ("MQGPE", "Macquarie Group Capital Notes", "FIN", "FI", "H", "104.10", "6.8"),
    # ---- Australian equity ETFs
    ("VAS", "Vanguard Australian Shares Index ETF", "DIV", "AE", "E", "98.40", "3.6"),
    ("IOZ", "iShares Core S&P/ASX 200 ETF", "DIV", "AE", "E", "32.20", "3.7"),
    ("STW", "SPDR S&P/ASX 200 Fund", "DIV", "AE", "E", "72.10", "3.8"),
    ("A200", "Betashares Australia 200 ETF", "DIV", "AE", "E", "135.20", "3.6"),
    ("VHY", "Vanguard Australian Shares High Yield ETF", "DIV", "AE", "E", "72.30", "5.0"),
    ("MVW", "VanEck Australian Equal Weight ETF", "DIV", "AE", "E", "35.10", "3.2"),
    ("SFY", "SPDR S&P/ASX 50 Fund", "DIV", "AE", "E", "67.20", "4.2"),
    ("ILC", "iShares S&P/ASX 20 ETF", "DIV", "AE", "E", "31.10", "4.4"),
    ("VSO", "Vanguard MSCI Australian Small Companies Index ETF", "DIV", "AE", "E", "62.10", "3.0"),
    ("ISO", "iShares S&P/ASX Small Ordinaries ETF", "DIV", "AE", "E", "4.72", "3.0"),
    ("SYI", "SPDR MSCI Australia Select High Dividend Yield Fund", "DIV", "AE", "E", "30.10", "4.8"),
    ("HVST", "Betashares Australian Dividend Harvester Fund (Managed Fund)", "DIV", "AE", "E", "13.10", "8.0"),
    ("QOZ", "Betashares FTSE RAFI Australia 200 ETF", "DIV", "AE", "E", "16.10", "4.5"),
    ("VETH", "Vanguard Ethically Conscious Australian Shares ETF", "DIV", "AE", "E", "65.20", "3.2"),
    ("FAIR", "Betashares Australian Sustainability Leaders ETF", "DIV", "AE", "E", "20.10", "2.5"),
    ("OZR", "SPDR S&P/ASX 200 Resources Fund", "DIV", "AE", "E", "11.10", "5.0"),
    ("OZF", "SPDR S&P/ASX 200 Financials EX A-REIT Fund", "DIV", "AE", "E", "22.10", "4.5"),
    ("MVB", "VanEck Australian Banks ETF", "DIV", "AE", "E", "33.10", "5.0"),
    ("QRE", "Betashares Australian Resources Sector ETF", "DIV", "AE", "E", "7.02", "5.0"),
    # ---- international equity ETFs and funds
    ("VGS", "Vanguard MSCI Index International Shares ETF", "DIV", "IE", "E", "125.30", "1.8"),
    ("IVV", "iShares S&P 500 ETF", "DIV", "IE", "E", "55.20", "1.1"),
    ("NDQ", "Betashares NASDAQ 100 ETF", "DIV", "IE", "E", "48.10", "0.6"),
    ("VTS", "Vanguard US Total Market Shares Index ETF", "DIV", "IE", "E", "400.20", "1.3"),
    ("VEU", "Vanguard All-World ex-US Shares Index ETF", "DIV", "IE", "E", "88.10", "2.8"),
    ("IOO", "iShares Global 100 ETF", "DIV", "IE", "E", "140.20", "1.2"),
    ("VGAD", "Vanguard MSCI Index International Shares (Hedged) ETF", "DIV", "IE", "E", "105.10", "2.0"),
    ("IHVV", "iShares S&P 500 AUD Hedged ETF", "DIV", "IE", "E", "50.10", "1.0"),
    ("VAE", "Vanguard FTSE Asia ex Japan Shares Index ETF", "DIV", "IE", "E", "80.10", "2.5"),
    ("VGE", "Vanguard FTSE Emerging Markets Shares ETF", "DIV", "IE", "E", "75.10", "3.0"),
    ("IEM", "iShares MSCI Emerging Markets ETF", "DIV", "IE", "E", "68.10", "2.0"),
    ("IJP", "iShares MSCI Japan ETF", "DIV", "IE", "E", "105.20", "1.5"),
    ("IEU", "iShares Europe ETF", "DIV", "IE", "E", "80.10", "2.5"),
    ("HACK", "Betashares Global Cybersecurity ETF", "DIV", "IE", "E", "12.10", "0.5"),
    ("ASIA", "Betashares Asia Technology Tigers ETF", "DIV", "IE", "E", "8.02", "1.0"),
    ("ETHI", "Betashares Global Sustainability Leaders ETF", "DIV", "IE", "E", "15.10", "2.0"),
    ("MOAT", "VanEck Morningstar Wide Moat ETF", "DIV", "IE", "E", "130.10", "1.5"),
    ("QUAL", "VanEck MSCI International Quality ETF", "DIV", "IE", "E", "55.10", "1.2"),
    ("IXJ", "iShares Global Healthcare ETF", "DIV", "IE", "E", "135.10", "1.1"),
    ("WXOZ", "SPDR S&P World ex Australia Fund", "DIV", "IE", "E", "45.10", "1.5"),
    ("BGBL", "Betashares Global Shares ETF", "DIV", "IE", "E", "70.10", "1.5"),
    ("HNDQ", "Betashares NASDAQ 100 Currency Hedged ETF", "DIV", "IE", "E", "45.10", "0.5"),
    ("FANG", "Global X FANG+ ETF", "DIV", "IE", "E", "30.10", "0"),
    ("SEMI", "Global X Semiconductor ETF", "DIV", "IE", "E", "17.10", "0"),
    ("ROBO", "Global X ROBO Global Robotics & Automation ETF", "DIV", "IE", "E", "75.10", "0"),
    ("TECH", "Global X Morningstar Global Technology ETF", "DIV", "IE", "E", "100.10", "0"),
    ("DHHF", "Betashares Diversified All Growth ETF", "DIV", "IE", "E", "35.10", "1.8"),
    ("VDHG", "Vanguard Diversified High Growth Index ETF", "DIV", "IE", "E", "65.10", "2.5"),
    ("VDGR", "Vanguard Diversified Growth Index ETF", "DIV", "IE", "E", "60.10", "2.8"),
    ("VDBA", "Vanguard Diversified Balanced Index ETF", "DIV", "IE", "E", "57.10", "3.0"),
    ("MGOC", "Magellan Global Fund (Open Class) (Managed Fund)", "DIV", "IE", "M", "2.92", "2.5"),
    ("HYGG", "Hyperion Global Growth Companies Fund (Managed Fund)", "DIV", "IE", "M", "6.52", "0"),
    # ---- fixed income
    ("VAF", "Vanguard Australian Fixed Interest Index ETF", "DIV", "FI", "E", "46.10", "3.2"),
    ("IAF", "iShares Core Composite Bond ETF", "DIV", "FI", "E", "100.20", "3.0"),
    ("VGB", "Vanguard Australian Government Bond Index ETF", "DIV", "FI", "E", "46.20", "2.9"),
    ("BOND", "SPDR S&P/ASX Australian Bond Fund", "DIV", "FI", "E", "25.10", "2.8"),
    ("PLUS", "VanEck Australian Corporate Bond Plus ETF", "DIV", "FI", "E", "17.10", "4.5"),
    ("VBND", "Vanguard Global Aggregate Bond Index (Hedged) ETF", "DIV", "FI", "E", "41.10", "3.0"),
    ("IHEB", "iShares J.P. Morgan USD Emerging Markets Bond (AUD Hedged) ETF", "DIV", "FI", "E", "80.10", "4.0"),
    ("CRED", "Betashares Australian Investment Grade Corporate Bond ETF", "DIV", "FI", "E", "23.10", "4.5"),
    ("QPON", "Betashares Australian Bank Senior Floating Rate Bond ETF", "DIV", "FI", "E", "26.10", "5.0"),
    ("FLOT", "VanEck Australian Floating Rate ETF", "DIV", "FI", "E", "25.10", "4.6"),
    ("VIF", "Vanguard International Fixed Interest Index (Hedged) ETF", "DIV", "FI", "E", "40.10", "3.0"),
    ("GOVT", "SPDR S&P/ASX Australian Government Bond Fund", "DIV", "FI", "E", "24.10", "2.9"),
    ("IGB", "iShares Treasury ETF", "DIV", "FI", "E", "96.10", "2.9"),
    ("HBRD", "Betashares Active Australian Hybrids Fund (Managed Fund)", "DIV", "FI", "M", "10.10", "6.0"),
    ("XARO", "ActiveX Ardea Real Outcome Bond Fund (Managed Fund)", "DIV", "FI", "M", "24.10", "3.0"),
    # ---- cash
    ("AAA", "Betashares Australian High Interest Cash ETF", "DIV", "CASH", "E", "50.12", "4.4"),
    ("BILL", "iShares Core Cash ETF", "DIV", "CASH", "E", "100.52", "4.3"),
    ("ISEC", "iShares Enhanced Cash ETF", "DIV", "CASH", "E", "100.62", "4.4"),
    ("MMKT", "Betashares Australian Cash Plus Fund (Managed Fund)", "DIV", "CASH", "M", "50.22", "4.6"),
    # ---- alternatives
    ("GOLD", "Global X Physical Gold", "DIV", "AL", "E", "35.10", "0"),
    ("QAU", "Betashares Gold Bullion ETF - Currency Hedged", "DIV", "AL", "E", "23.10", "0"),
    ("PMGOLD", "Perth Mint Gold", "DIV", "AL", "E", "28.10", "0"),
    ("ETPMAG", "Global X Physical Silver", "DIV", "AL", "E", "40.10", "0"),
    ("OOO", "Betashares Crude Oil Index ETF - Currency Hedged (Synthetic)", "DIV", "AL", "E", "5.02", "0"),
    ("IFRA", "VanEck FTSE Global Infrastructure (Hedged) ETF", "DIV", "AL", "E", "21.10", "3.5"),
    ("VBLD", "Vanguard Global Infrastructure Index ETF", "DIV", "AL", "E", "65.10", "2.5"),
    ("MICH", "Magellan Infrastructure Fund (Currency Hedged) (Managed Fund)", "DIV", "AL", "M", "3.02", "4.0"),
    ("EBTC", "Global X 21Shares Bitcoin ETF", "DIV", "AL", "E", "60.10", "0"),
)
MARKER_CODE = UNIVERSE[-1][0]


def _volatility(group: str, klass: str, kind: str, level: Decimal) -> Decimal:
    """Daily volatility as a fraction: cash barely moves, bonds and hybrids a little, small caps a lot."""
    if klass == "CASH":
        return Decimal("0.0002")
    if kind == "H":
        return Decimal("0.0025")
    if klass == "FI":
        return Decimal("0.003")
    percent = Decimal(GROUPS[group].volatility)
    if kind in ("E", "M"):
        percent = min(percent, Decimal("0.9")) if klass != "AL" else Decimal("1.0")
    if level < 2:
        percent *= Decimal("1.6")
    return percent / 100


def _tick(value: Decimal) -> Decimal:
    """ASX-like price steps: tenths of a cent below $2, cents above."""
    step = Decimal("0.001") if value < 2 else Decimal("0.01")
    return max(value.quantize(step, rounding=ROUND_HALF_UP), step)


def price_path(code: str, level: Decimal, volatility: Decimal, days: int, drift: Decimal = Decimal("0.0003")) -> list[Decimal]:
    """`days` closes of a seeded random walk (the code is the seed) ending exactly at `level`."""
    rng = random.Random(zlib.crc32(code.encode("utf-8")))
    path = [Decimal(1)]
    for _ in range(days - 1):
        move = Decimal(repr(round(rng.gauss(0.0, 1.0), 6))) * volatility + drift
        path.append(path[-1] * (1 + max(move, Decimal("-0.3"))))
    scale = level / path[-1]
    return [_tick(p * scale) for p in path]


def trading_days(end: date, count: int) -> list[date]:
    """The `count` weekdays ending on the last weekday on or before `end`, oldest first."""
    days: list[date] = []
    day = end
    while len(days) < count:
        if day.weekday() < 5:
            days.append(day)
        day -= timedelta(days=1)
    return days[::-1]


def _asset_url(code: str, kind: str) -> str:
    section = "company" if kind in ("S", "H") else "etp"
    return f"https://www.asx.com.au/markets/{section}/{code.lower()}"


TitledRow = TypeVar("TitledRow", bound=SQLModel)  # a class, a type or an industry group


def _id_by_title(s: Session, existing: dict[str, TitledRow], title: str, new_row: Callable[[], TitledRow]) -> int:
    """The id of the row titled `title` in `existing` (by case-folded title), else of `new_row()`, added."""
    found = existing.get(title.casefold())
    if found is None:
        found = new_row()
        s.add(found)
        s.flush()
    return stored_id(found)


def _classes(s: Session) -> dict[str, int]:
    rows = list(s.exec(select(AssetClass).where(col(AssetClass.firm_id).is_(None))).all())
    cash = next((c for c in rows if c.is_cash), None)
    by_title = {c.title.strip().casefold(): c for c in rows if not c.is_cash}
    result: dict[str, int] = {}
    next_idx = count(max((c.idx for c in rows), default=0) + 1)  # taken by new classes only
    for key, title in CLASSES.items():
        if key == "CASH":
            if cash is None:
                cash = AssetClass(title=title, is_cash=True, idx=0)
                s.add(cash)
                s.flush()
            result[key] = stored_id(cash)
            continue
        result[key] = _id_by_title(s, by_title, title, lambda: AssetClass(title=title, is_cash=False, idx=next(next_idx)))
    return result


def _types(s: Session) -> dict[str, int]:
    by_title = {t.title.strip().casefold(): t for t in s.exec(select(AssetType).where(col(AssetType.firm_id).is_(None))).all()}
    result: dict[str, int] = {}
    for key, title in TYPES.items():
        result[key] = _id_by_title(s, by_title, title, lambda: AssetType(title=title))
    return result


def _groups(s: Session, known: dict[str, int]) -> dict[str, int]:
    """Group ids by key: the industry-group demo's ids, else got or created by title."""
    existing = {g.title.strip().casefold(): g for g in s.exec(select(IndustryGroup)).all()}
    next_idx = count(max((g.idx for g in existing.values()), default=-1) + 1)  # taken by new groups only
    result: dict[str, int] = {}
    for key, (title, color, _) in GROUPS.items():
        if title in known:
            result[key] = known[title]
            continue
        result[key] = _id_by_title(s, existing, title, lambda: IndustryGroup(title=title, color=color, idx=next(next_idx)))
    return result


def load_demo_assets(today: date | None = None) -> bool:
    """Add the demo universe once (see the module's docstring); True when something was added."""
    from app.services.demo_industry_groups import load_demo_industry_groups

    known_groups = load_demo_industry_groups()
    with session_scope() as s:
        if s.exec(select(Asset.id).where(Asset.code == MARKER_CODE)).first() is not None:
            return False
        classes, types, groups = _classes(s), _types(s), _groups(s, known_groups)
        taken = set(s.exec(select(Asset.code).where(col(Asset.code).in_([row[0] for row in UNIVERSE]))).all())
        fresh = [row for row in UNIVERSE if row[0] not in taken]
        if not fresh:
            return False
        now = utcnow()
        s.execute(insert(Asset), [
            {"code": code, "name": name, "class_id": classes[klass], "type_id": types[kind],
             "industry_group_id": groups[group], "dividend_yield": Decimal(dividend).quantize(Decimal("0.0001")),
             "url": _asset_url(code, kind), "created_at": now, "updated_at": now}
            for code, name, group, klass, kind, _, dividend in fresh
        ])
        ids = {code: asset_id for code, asset_id in  # (ids of stored rows: never None)
               s.exec(select(Asset.code, col(Asset.id)).where(col(Asset.code).in_([row[0] for row in fresh]))).all()
               if asset_id is not None}
        days = trading_days(today or date.today(), TRADING_DAYS)
        prices: list[dict[str, int | date | Decimal]] = []  # AssetPrice rows, inserted in bulk
        for code, _, group, klass, kind, level, _ in fresh:
            level_d = Decimal(level)
            drift = Decimal("0.00015") if klass == "CASH" else (Decimal("0.0001") if klass == "FI" or kind == "H" else Decimal("0.0003"))
            closes = price_path(code, level_d, _volatility(group, klass, kind, level_d), len(days), drift)
            prices.extend({"asset_id": ids[code], "price_date": day, "close": close} for day, close in zip(days, closes))
        for start in range(0, len(prices), 5000):
            s.execute(insert(AssetPrice), prices[start:start + 5000])
        recompute_prices(s, ids.values())
        return True

