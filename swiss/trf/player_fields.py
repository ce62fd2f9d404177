"""The rating fields of a ``001`` line, as an organiser types them: checked and normalised.

FIDE rates an event from its TRF report only when each player's line carries the FIDE id, the
federation, the birth date, the sex, the title and the name as ``Last, First`` (TRF-16 and
TRF-2026, columns 10-79). :func:`parse_field` turns what was typed into the text the TRF
columns hold, or raises :class:`FieldError` saying what is accepted.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, fields
from datetime import date

from swiss.trf.format import TrfPlayerInfo

#: The FIDE federation codes (ratings.fide.com, "Federations"), plus FID for players
#: registered under the FIDE flag.
_FEDERATION_TABLE = """
    AFG AHO ALB ALG AND ANG ANT ARG ARM ARU AUS AUT AZE BAH BAN BAR BDI BEL BER BHU BIH BIZ
    BLR BOL BOT BRA BRN BRU BUL BUR CAF CAM CAN CAY CGO CHA CHI CHN CIV CMR COD COL COM CPV
    CRC CRO CUB CYP CZE DEN DJI DMA DOM ECU EGY ENG ERI ESA ESP EST ETH FAI FID FIJ FIN FRA
    GAB GAM GCI GEO GEQ GER GHA GRE GRN GUA GUM GUY HAI HKG HON HUN INA IND IOM IRI IRL IRQ
    ISL ISR ISV ITA IVB JAM JCI JOR JPN KAZ KEN KGZ KOR KOS KSA KUW LAO LAT LBA LBN LBR LCA
    LES LIE LTU LUX MAC MAD MAR MAS MAW MDA MDV MEX MGL MKD MLI MLT MNC MNE MOZ MRI MTN MYA
    NAM NCA NED NEP NGR NIG NOR NRU NZL OMA PAK PAN PAR PER PHI PLE PLW PNG POL POR PUR QAT
    ROU RSA RUS RWA SCO SEN SEY SGP SKN SLE SLO SMR SOL SOM SRB SRI SSD STP SUD SUI SUR SVK
    SWE SWZ SYR TAN TGA THA TJK TKM TLS TOG TPE TTO TUN TUR UAE UGA UKR URU USA UZB VAN VEN
    VIE VIN WLS YEM ZAM ZIM
"""
FEDERATIONS = frozenset(_FEDERATION_TABLE.split())
#: The titles TRF writes in columns 11-13.
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
#: Column 10: ``m`` or ``w``; what people type for them.
SEXES = {"m": "m", "male": "m", "man": "m", "w": "w", "f": "w", "female": "w", "woman": "w"}
FIDE_ID_DIGITS = 11  # columns 58-68
FEDERATION_LENGTH = 3  # columns 54-56
BIRTH_LENGTH = 10  # columns 70-79: YYYY/MM/DD
TRF_NAME_LENGTH = 33  # columns 15-47
EARLIEST_BIRTH_YEAR = 1900
#: What clears a field when typed as its value.
CLEAR = "-"

_DIGITS = re.compile(r"[0-9]+")
_YEAR = re.compile(r"([0-9]{4})")
_DAY = re.compile(r"([0-9]{4})[/-]([0-9]{2})[/-]([0-9]{2})")


class FieldError(ValueError):
    """A value the field cannot hold; the message says what it accepts."""


@dataclass(frozen=True, slots=True)
class PlayerFields:
    """A player's rating fields as TRF writes them; ``""`` when not set."""

    fide_id: str = ""
    federation: str = ""
    birth: str = ""
    sex: str = ""
    title: str = ""
    trf_name: str = ""

    def as_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def is_empty(self) -> bool:
        return not any(self.as_dict().values())

    def trf_info(self) -> TrfPlayerInfo:
        """The fields of the ``001`` line the writer fills from these (the name aside)."""
        return TrfPlayerInfo(sex=self.sex, title=self.title, federation=self.federation,
                             fide_id=self.fide_id, birth=self.birth)


FIELD_NAMES = tuple(f.name for f in fields(PlayerFields))


def parse_field(name: str, text: str, *, today: date) -> str:
    """``text`` as field ``name`` stores it (``""`` for :data:`CLEAR` or blank); ``today``
    bounds a birth date (passed in: the core reads no clock)."""
    value = text.strip()
    if value in ("", CLEAR):
        return ""
    if name == "fide_id":
        return _fide_id(value)
    if name == "federation":
        return _federation(value)
    if name == "birth":
        return _birth(value, today)
    if name == "sex":
        return _sex(value)
    if name == "title":
        return _title(value)
    if name == "trf_name":
        return _trf_name(value)
    raise FieldError(f"unknown field {name!r}: the fields are {', '.join(FIELD_NAMES)}")


def _fide_id(value: str) -> str:
    # ASCII digits only: "²" passes str.isdigit() but is no FIDE id
    if not _DIGITS.fullmatch(value) or len(value) > FIDE_ID_DIGITS or int(value) == 0:
        raise FieldError(f"a FIDE id is 1 to {FIDE_ID_DIGITS} digits, like 1503014")
    return str(int(value))


def _federation(value: str) -> str:
    code = value.upper()
    if code not in FEDERATIONS:
        raise FieldError("a federation is a three-letter FIDE code, like ENG, GER, USA or IND "
                         "(FIDE's codes, not ISO's: GER, not DEU)")
    return code


def _birth(value: str, today: date) -> str:
    if (year := _YEAR.fullmatch(value)) is not None:
        born = int(year.group(1))
        if not EARLIEST_BIRTH_YEAR <= born <= today.year:
            raise FieldError(f"a birth year is from {EARLIEST_BIRTH_YEAR} to {today.year}")
        return year.group(1)
    day = _DAY.fullmatch(value)
    if day is None:
        raise FieldError("a birth date is YYYY/MM/DD (like 1990/07/21) or a year (1990)")
    try:
        born_on = date(int(day.group(1)), int(day.group(2)), int(day.group(3)))
    except ValueError:
        raise FieldError(f"{value} is not a date (YYYY/MM/DD)") from None
    if not date(EARLIEST_BIRTH_YEAR, 1, 1) <= born_on <= today:
        raise FieldError(f"a birth date is from {EARLIEST_BIRTH_YEAR} to today")
    return born_on.strftime("%Y/%m/%d")


def _sex(value: str) -> str:
    sex = SEXES.get(value.lower())
    if sex is None:
        raise FieldError("sex is m or w (as TRF writes it; f is read as w)")
    return sex


def _title(value: str) -> str:
    title = value.upper()
    if title not in TITLES:
        raise FieldError(f"a title is one of {', '.join(TITLES)}")
    return title


def _trf_name(value: str) -> str:
    value = unicodedata.normalize("NFC", value)
    if any(unicodedata.category(ch)[0] == "C" for ch in value):
        raise FieldError("a name has no control or invisible characters")
    if len(value) > TRF_NAME_LENGTH:
        raise FieldError(f"a TRF name is at most {TRF_NAME_LENGTH} characters")
    last, comma, first = value.partition(",")
    if not comma or not last.strip() or "," in first:
        raise FieldError("a TRF name is written Last, First (one comma), like Carlsen, Magnus")
    return f"{last.strip()}, {first.strip()}" if first.strip() else f"{last.strip()},"
