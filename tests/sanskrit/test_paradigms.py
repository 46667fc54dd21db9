# ruff: noqa: E501 (the tables are one case a line, as the grammars print them)
"""Nominal paradigms against the grammars' tables, written out here (Whitney, Kale, Macdonell): every form
of each class is read back to its stem and its case and number, not checked against the generator."""

import pytest

from pramana.sanskrit.paradigms import CASES, NUMBERS, base_stems, candidate_stems, readings
from pramana.text.schemes import Scheme, convert

# stem, gender, then the eight cases (nom acc ins dat abl gen loc voc), each sg du pl; "-" where none,
# "/" between forms the grammars give side by side.
TABLES = {
    (
        "deva",
        "m",
    ): """devaḥ devau devāḥ | devam devau devān | devena devābhyām devaiḥ | devāya devābhyām devebhyaḥ
        | devāt devābhyām devebhyaḥ | devasya devayoḥ devānām | deve devayoḥ deveṣu | deva devau devāḥ""",
    ("phala", "n"): """phalam phale phalāni | phalam phale phalāni | phalena phalābhyām phalaiḥ
        | phalāya phalābhyām phalebhyaḥ | phalāt phalābhyām phalebhyaḥ | phalasya phalayoḥ phalānām
        | phale phalayoḥ phaleṣu | phala phale phalāni""",
    (
        "senā",
        "f",
    ): """senā sene senāḥ | senām sene senāḥ | senayā senābhyām senābhiḥ | senāyai senābhyām senābhyaḥ
        | senāyāḥ senābhyām senābhyaḥ | senāyāḥ senayoḥ senānām | senāyām senayoḥ senāsu | sene sene senāḥ""",
    ("kānta", "f"): """kāntā kānte kāntāḥ | kāntām kānte kāntāḥ | kāntayā kāntābhyām kāntābhiḥ
        | kāntāyai kāntābhyām kāntābhyaḥ | kāntāyāḥ kāntābhyām kāntābhyaḥ | kāntāyāḥ kāntayoḥ kāntānām
        | kāntāyām kāntayoḥ kāntāsu | kānte kānte kāntāḥ""",
    (
        "agni",
        "m",
    ): """agniḥ agnī agnayaḥ | agnim agnī agnīn | agninā agnibhyām agnibhiḥ | agnaye agnibhyām agnibhyaḥ
        | agneḥ agnibhyām agnibhyaḥ | agneḥ agnyoḥ agnīnām | agnau agnyoḥ agniṣu | agne agnī agnayaḥ""",
    ("mati", "f"): """matiḥ matī matayaḥ | matim matī matīḥ | matyā matibhyām matibhiḥ
        | mataye/matyai matibhyām matibhyaḥ | mateḥ/matyāḥ matibhyām matibhyaḥ | mateḥ/matyāḥ matyoḥ matīnām
        | matau/matyām matyoḥ matiṣu | mate matī matayaḥ""",
    (
        "vāri",
        "n",
    ): """vāri vāriṇī vārīṇi | vāri vāriṇī vārīṇi | vāriṇā vāribhyām vāribhiḥ | vāriṇe vāribhyām vāribhyaḥ
        | vāriṇaḥ vāribhyām vāribhyaḥ | vāriṇaḥ vāriṇoḥ vārīṇām | vāriṇi vāriṇoḥ vāriṣu | vāri/vāre vāriṇī vārīṇi""",
    (
        "guru",
        "m",
    ): """guruḥ gurū guravaḥ | gurum gurū gurūn | guruṇā gurubhyām gurubhiḥ | gurave gurubhyām gurubhyaḥ
        | guroḥ gurubhyām gurubhyaḥ | guroḥ gurvoḥ gurūṇām | gurau gurvoḥ guruṣu | guro gurū guravaḥ""",
    ("madhu", "n"): """madhu madhunī madhūni | madhu madhunī madhūni | madhunā madhubhyām madhubhiḥ
        | madhune madhubhyām madhubhyaḥ | madhunaḥ madhubhyām madhubhyaḥ | madhunaḥ madhunoḥ madhūnām
        | madhuni madhunoḥ madhuṣu | madhu/madho madhunī madhūni""",
    (
        "nadī",
        "f",
    ): """nadī nadyau nadyaḥ | nadīm nadyau nadīḥ | nadyā nadībhyām nadībhiḥ | nadyai nadībhyām nadībhyaḥ
        | nadyāḥ nadībhyām nadībhyaḥ | nadyāḥ nadyoḥ nadīnām | nadyām nadyoḥ nadīṣu | nadi nadyau nadyaḥ""",
    ("vadhū", "f"): """vadhūḥ vadhvau vadhvaḥ | vadhūm vadhvau vadhūḥ | vadhvā vadhūbhyām vadhūbhiḥ
        | vadhvai vadhūbhyām vadhūbhyaḥ | vadhvāḥ vadhūbhyām vadhūbhyaḥ | vadhvāḥ vadhvoḥ vadhūnām
        | vadhvām vadhvoḥ vadhūṣu | vadhu vadhvau vadhvaḥ""",
    (
        "dhī",
        "f",
    ): """dhīḥ dhiyau dhiyaḥ | dhiyam dhiyau dhiyaḥ | dhiyā dhībhyām dhībhiḥ | dhiye/dhiyai dhībhyām dhībhyaḥ
        | dhiyaḥ/dhiyāḥ dhībhyām dhībhyaḥ | dhiyaḥ/dhiyāḥ dhiyoḥ dhiyām/dhīnām | dhiyi/dhiyām dhiyoḥ dhīṣu
        | dhīḥ dhiyau dhiyaḥ""",
    ("kartṛ", "m"): """kartā kartārau kartāraḥ | kartāram kartārau kartṝn | kartrā kartṛbhyām kartṛbhiḥ
        | kartre kartṛbhyām kartṛbhyaḥ | kartuḥ kartṛbhyām kartṛbhyaḥ | kartuḥ kartroḥ kartṝṇām
        | kartari kartroḥ kartṛṣu | kartaḥ kartārau kartāraḥ""",
    (
        "pitṛ",
        "m",
    ): """pitā pitarau pitaraḥ | pitaram pitarau pitṝn | pitrā pitṛbhyām pitṛbhiḥ | pitre pitṛbhyām pitṛbhyaḥ
        | pituḥ pitṛbhyām pitṛbhyaḥ | pituḥ pitroḥ pitṝṇām | pitari pitroḥ pitṛṣu | pitaḥ pitarau pitaraḥ""",
    (
        "mātṛ",
        "f",
    ): """mātā mātarau mātaraḥ | mātaram mātarau mātṝḥ | mātrā mātṛbhyām mātṛbhiḥ | mātre mātṛbhyām mātṛbhyaḥ
        | mātuḥ mātṛbhyām mātṛbhyaḥ | mātuḥ mātroḥ mātṝṇām | mātari mātroḥ mātṛṣu | mātaḥ mātarau mātaraḥ""",
    (
        "go",
        "m",
    ): """gauḥ gāvau gāvaḥ | gām gāvau gāḥ | gavā gobhyām gobhiḥ | gave gobhyām gobhyaḥ | goḥ gobhyām gobhyaḥ
        | goḥ gavoḥ gavām | gavi gavoḥ goṣu | gauḥ gāvau gāvaḥ""",
    ("vāc", "f"): """vāk vācau vācaḥ | vācam vācau vācaḥ | vācā vāgbhyām vāgbhiḥ | vāce vāgbhyām vāgbhyaḥ
        | vācaḥ vāgbhyām vāgbhyaḥ | vācaḥ vācoḥ vācām | vāci vācoḥ vākṣu | vāk vācau vācaḥ""",
    ("marut", "m"): """marut marutau marutaḥ | marutam marutau marutaḥ | marutā marudbhyām marudbhiḥ
        | marute marudbhyām marudbhyaḥ | marutaḥ marudbhyām marudbhyaḥ | marutaḥ marutoḥ marutām
        | maruti marutoḥ marutsu | marut marutau marutaḥ""",
    (
        "rājan",
        "m",
    ): """rājā rājānau rājānaḥ | rājānam rājānau rājñaḥ | rājñā rājabhyām rājabhiḥ | rājñe rājabhyām rājabhyaḥ
        | rājñaḥ rājabhyām rājabhyaḥ | rājñaḥ rājñoḥ rājñām | rājñi/rājani rājñoḥ rājasu | rājan rājānau rājānaḥ""",
    ("ātman", "m"): """ātmā ātmānau ātmānaḥ | ātmānam ātmānau ātmanaḥ | ātmanā ātmabhyām ātmabhiḥ
        | ātmane ātmabhyām ātmabhyaḥ | ātmanaḥ ātmabhyām ātmabhyaḥ | ātmanaḥ ātmanoḥ ātmanām | ātmani ātmanoḥ ātmasu
        | ātman ātmānau ātmānaḥ""",
    ("nāman", "n"): """nāma nāmnī/nāmanī nāmāni | nāma nāmnī/nāmanī nāmāni | nāmnā nāmabhyām nāmabhiḥ
        | nāmne nāmabhyām nāmabhyaḥ | nāmnaḥ nāmabhyām nāmabhyaḥ | nāmnaḥ nāmnoḥ nāmnām | nāmni/nāmani nāmnoḥ nāmasu
        | nāma/nāman nāmnī/nāmanī nāmāni""",
    ("karman", "n"): """karma karmaṇī karmāṇi | karma karmaṇī karmāṇi | karmaṇā karmabhyām karmabhiḥ
        | karmaṇe karmabhyām karmabhyaḥ | karmaṇaḥ karmabhyām karmabhyaḥ | karmaṇaḥ karmaṇoḥ karmaṇām
        | karmaṇi karmaṇoḥ karmasu | karma/karman karmaṇī karmāṇi""",
    (
        "balin",
        "m",
    ): """balī balinau balinaḥ | balinam balinau balinaḥ | balinā balibhyām balibhiḥ | baline balibhyām balibhyaḥ
        | balinaḥ balibhyām balibhyaḥ | balinaḥ balinoḥ balinām | balini balinoḥ baliṣu | balin balinau balinaḥ""",
    ("bhagavat", "m"): """bhagavān bhagavantau bhagavantaḥ | bhagavantam bhagavantau bhagavataḥ
        | bhagavatā bhagavadbhyām bhagavadbhiḥ | bhagavate bhagavadbhyām bhagavadbhyaḥ
        | bhagavataḥ bhagavadbhyām bhagavadbhyaḥ | bhagavataḥ bhagavatoḥ bhagavatām | bhagavati bhagavatoḥ bhagavatsu
        | bhagavan bhagavantau bhagavantaḥ""",
    (
        "śrīmat",
        "f",
    ): """śrīmatī śrīmatyau śrīmatyaḥ | śrīmatīm śrīmatyau śrīmatīḥ | śrīmatyā śrīmatībhyām śrīmatībhiḥ
        | śrīmatyai śrīmatībhyām śrīmatībhyaḥ | śrīmatyāḥ śrīmatībhyām śrīmatībhyaḥ | śrīmatyāḥ śrīmatyoḥ śrīmatīnām
        | śrīmatyām śrīmatyoḥ śrīmatīṣu | śrīmati śrīmatyau śrīmatyaḥ""",
    ("mahat", "m"): """mahān mahāntau mahāntaḥ | mahāntam mahāntau mahataḥ | mahatā mahadbhyām mahadbhiḥ
        | mahate mahadbhyām mahadbhyaḥ | mahataḥ mahadbhyām mahadbhyaḥ | mahataḥ mahatoḥ mahatām
        | mahati mahatoḥ mahatsu | mahan mahāntau mahāntaḥ""",
    (
        "gacchat",
        "m",
    ): """gacchan gacchantau gacchantaḥ | gacchantam gacchantau gacchataḥ | gacchatā gacchadbhyām gacchadbhiḥ
        | gacchate gacchadbhyām gacchadbhyaḥ | gacchataḥ gacchadbhyām gacchadbhyaḥ | gacchataḥ gacchatoḥ gacchatām
        | gacchati gacchatoḥ gacchatsu | gacchan gacchantau gacchantaḥ""",
    (
        "manas",
        "n",
    ): """manaḥ manasī manāṃsi | manaḥ manasī manāṃsi | manasā manobhyām manobhiḥ | manase manobhyām manobhyaḥ
        | manasaḥ manobhyām manobhyaḥ | manasaḥ manasoḥ manasām | manasi manasoḥ manaḥsu | manaḥ manasī manāṃsi""",
    (
        "havis",
        "n",
    ): """haviḥ haviṣī havīṃṣi | haviḥ haviṣī havīṃṣi | haviṣā havirbhyām havirbhiḥ | haviṣe havirbhyām havirbhyaḥ
        | haviṣaḥ havirbhyām havirbhyaḥ | haviṣaḥ haviṣoḥ haviṣām | haviṣi haviṣoḥ haviḥṣu | haviḥ haviṣī havīṃṣi""",
    ("dhanus", "n"): """dhanuḥ dhanuṣī dhanūṃṣi | dhanuḥ dhanuṣī dhanūṃṣi | dhanuṣā dhanurbhyām dhanurbhiḥ
        | dhanuṣe dhanurbhyām dhanurbhyaḥ | dhanuṣaḥ dhanurbhyām dhanurbhyaḥ | dhanuṣaḥ dhanuṣoḥ dhanuṣām
        | dhanuṣi dhanuṣoḥ dhanuḥṣu | dhanuḥ dhanuṣī dhanūṃṣi""",
    (
        "garīyas",
        "m",
    ): """garīyān garīyāṃsau garīyāṃsaḥ | garīyāṃsam garīyāṃsau garīyasaḥ | garīyasā garīyobhyām garīyobhiḥ
        | garīyase garīyobhyām garīyobhyaḥ | garīyasaḥ garīyobhyām garīyobhyaḥ | garīyasaḥ garīyasoḥ garīyasām
        | garīyasi garīyasoḥ garīyaḥsu | garīyan garīyāṃsau garīyāṃsaḥ""",
    (
        "sarva",
        "m",
    ): """sarvaḥ sarvau sarve | sarvam sarvau sarvān | sarveṇa sarvābhyām sarvaiḥ | sarvasmai sarvābhyām sarvebhyaḥ
        | sarvasmāt sarvābhyām sarvebhyaḥ | sarvasya sarvayoḥ sarveṣām | sarvasmin sarvayoḥ sarveṣu | sarva sarvau sarve""",
    (
        "tad",
        "m",
    ): """saḥ tau te | tam tau tān | tena tābhyām taiḥ | tasmai tābhyām tebhyaḥ | tasmāt tābhyām tebhyaḥ
        | tasya tayoḥ teṣām | tasmin tayoḥ teṣu | - - -""",
    (
        "tad",
        "f",
    ): """sā te tāḥ | tām te tāḥ | tayā tābhyām tābhiḥ | tasyai tābhyām tābhyaḥ | tasyāḥ tābhyām tābhyaḥ
        | tasyāḥ tayoḥ tāsām | tasyām tayoḥ tāsu | - - -""",
    ("etad", "m"): """eṣaḥ etau ete | etam etau etān | etena etābhyām etaiḥ | etasmai etābhyām etebhyaḥ
        | etasmāt etābhyām etebhyaḥ | etasya etayoḥ eteṣām | etasmin etayoḥ eteṣu | - - -""",
    (
        "idam",
        "m",
    ): """ayam imau ime | imam imau imān | anena ābhyām ebhiḥ | asmai ābhyām ebhyaḥ | asmāt ābhyām ebhyaḥ
        | asya anayoḥ eṣām | asmin anayoḥ eṣu | - - -""",
    ("adas", "m"): """asau amū amī | amum amū amūn | amunā amūbhyām amībhiḥ | amuṣmai amūbhyām amībhyaḥ
        | amuṣmāt amūbhyām amībhyaḥ | amuṣya amuyoḥ amīṣām | amuṣmin amuyoḥ amīṣu | - - -""",
    (
        "kim",
        "n",
    ): """kim ke kāni | kim ke kāni | kena kābhyām kaiḥ | kasmai kābhyām kebhyaḥ | kasmāt kābhyām kebhyaḥ
        | kasya kayoḥ keṣām | kasmin kayoḥ keṣu | - - -""",
    ("asmad", ""): """aham āvām vayam | mām āvām asmān | mayā āvābhyām asmābhiḥ | mahyam āvābhyām asmabhyam
        | mat āvābhyām asmat | mama āvayoḥ asmākam | mayi āvayoḥ asmāsu | - - -""",
    (
        "yuṣmad",
        "",
    ): """tvam yuvām yūyam | tvām yuvām yuṣmān | tvayā yuvābhyām yuṣmābhiḥ | tubhyam yuvābhyām yuṣmabhyam
        | tvat yuvābhyām yuṣmat | tava yuvayoḥ yuṣmākam | tvayi yuvayoḥ yuṣmāsu | - - -""",
    (
        "dvi",
        "m",
    ): """- dvau - | - dvau - | - dvābhyām - | - dvābhyām - | - dvābhyām - | - dvayoḥ - | - dvayoḥ - | - dvau -""",
    (
        "tri",
        "m",
    ): """- - trayaḥ | - - trīn | - - tribhiḥ | - - tribhyaḥ | - - tribhyaḥ | - - trayāṇām | - - triṣu | - - trayaḥ""",
    (
        "catur",
        "f",
    ): """- - catasraḥ | - - catasraḥ | - - catasṛbhiḥ | - - catasṛbhyaḥ | - - catasṛbhyaḥ | - - catasṛṇām
        | - - catasṛṣu | - - catasraḥ""",
    (
        "pañcan",
        "",
    ): """- - pañca | - - pañca | - - pañcabhiḥ | - - pañcabhyaḥ | - - pañcabhyaḥ | - - pañcānām | - - pañcasu
        | - - pañca""",
}


def _slp1(iast: str) -> str:
    return convert(iast, Scheme.IAST, Scheme.SLP1)


def _cells(text: str):
    for case, row in enumerate(text.split("|")):
        for number, cell in enumerate(row.split()):
            for form in cell.split("/"):
                if form != "-":
                    yield case, number, form


@pytest.mark.parametrize(("stem", "gender"), list(TABLES), ids=[f"{s}-{g or 'x'}" for s, g in TABLES])
def test_every_form_of_the_table_is_read_back_to_its_stem_and_slot(stem, gender):
    stem_slp1 = _slp1(stem)
    wrong = []
    for case, number, form in _cells(TABLES[stem, gender]):
        word = _slp1(form)
        found = candidate_stems(word)
        if stem_slp1 not in found and not any(stem_slp1 in base_stems(s) for s in found):
            wrong.append(f"{form}: {stem} not among the candidate stems")
        elif (case, number) not in readings(word, stem_slp1, gender):
            wrong.append(f"{form}: not {CASES[case]} {NUMBERS[number]}")
    assert not wrong, wrong
