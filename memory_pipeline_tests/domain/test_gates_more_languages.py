"""The gates read the speech acts of the languages added as data (issue 25: adding a language is adding data):
in each, a question, a hypothetical, another person's fact, a pleasantry and a choice put off are rejected, and
the right answers (where the user lives, their name, their job) still pass."""

import unicodedata

import pytest

from memory_pipeline.domain.gates import gate
from memory_pipeline.domain.language import identify
from memory_pipeline.domain.lexicon import codes_for

# (quote, attribute, value, reason): reason None for a right answer. Each rejection turns on a word of its own
# language only (Norwegian and Danish read each other's words: a line in one is read without the other's data).
CASES = {
    "nb": [
        ("Hva er den beste restauranten i Bergen?", "home_location", "Bergen", "quote_is_question"),
        ("Kanskje flytter jeg til Tromsø neste år.", "home_location", "Tromsø", "quote_is_hypothetical"),
        ("Søsteren min bor i Stavanger.", "home_location", "Stavanger", "quote_about_other_person"),
        ("Tusen takk!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("Jeg skal tenke på det.", "decision:årsabonnement", "årsabonnement", "quote_is_undecided"),
        ("Jeg bor i Bergen sammen med kona mi.", "home_location", "Bergen", None),
        ("Jeg heter Kari.", "name", "Kari", None),
        ("Jeg jobber som lærer.", "job", "lærer", None),
    ],
    "da": [
        ("Hvornår åbner biblioteket i Aarhus?", "home_location", "Aarhus", "quote_is_question"),
        ("Måske flytter jeg til Odense næste år.", "home_location", "Odense", "quote_is_hypothetical"),
        ("Min moster bor i Aalborg.", "home_location", "Aalborg", "quote_about_other_person"),
        ("Mange tak!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("Jeg vil tænke over det.", "decision:årsabonnement", "årsabonnement", "quote_is_undecided"),
        ("Jeg bor i København med min kæreste.", "home_location", "København", None),
        ("Jeg hedder Mette.", "name", "Mette", None),
        ("Jeg arbejder som lærer.", "job", "lærer", None),
    ],
    "ja": [
        ("札幌でおすすめのラーメン屋はどこですか？", "home_location", "札幌", "quote_is_question"),
        ("もし福岡に引っ越したら、毎日ラーメンを食べます。", "home_location", "福岡", "quote_is_hypothetical"),
        ("姉は京都に住んでいます。", "home_location", "京都", "quote_about_other_person"),
        ("ありがとうございます！", "opinion:service", "likes", "quote_is_pleasantry"),
        ("ちょっと考えておきます。", "decision:年間プラン", "年間プラン", "quote_is_undecided"),
        ("夫と名古屋に住んでいます。", "home_location", "名古屋", None),
        ("私の名前は佐藤です。", "name", "佐藤", None),
        ("小学校の教師として働いています。", "job", "教師", None),
    ],
    "ko": [
        ("부산에서 제일 맛있는 식당이 어디예요?", "home_location", "부산", "quote_is_question"),
        ("만약 제주도로 이사하면 매일 바다를 볼 거예요.", "home_location", "제주도", "quote_is_hypothetical"),
        ("제 여동생은 대구에 살아요.", "home_location", "대구", "quote_about_other_person"),
        ("정말 감사합니다!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("좀 더 생각해 볼게요.", "decision:연간_요금제", "연간 요금제", "quote_is_undecided"),
        ("남편과 함께 인천에 살아요.", "home_location", "인천", None),
        ("제 이름은 민준입니다.", "name", "민준", None),
        ("저는 교사로 일하고 있어요.", "job", "교사", None),
    ],
    "vi": [
        ("Ở Đà Lạt có quán cà phê nào ngon không?", "home_location", "Đà Lạt", "quote_is_question"),
        ("Nếu tôi chuyển đến Huế, tôi sẽ mở một quán cà phê.", "home_location", "Huế", "quote_is_hypothetical"),
        ("Chị gái tôi sống ở Cần Thơ.", "home_location", "Cần Thơ", "quote_about_other_person"),
        ("Cảm ơn bạn rất nhiều!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("Để tôi suy nghĩ thêm.", "decision:gói_năm", "gói năm", "quote_is_undecided"),
        ("Tôi sống ở Hà Nội với chồng tôi.", "home_location", "Hà Nội", None),
        ("Tôi tên là Minh.", "name", "Minh", None),
        ("Tôi làm giáo viên.", "job", "giáo viên", None),
    ],
    "hi": [
        ("दिल्ली में सबसे अच्छा खाना कहाँ मिलता है?", "home_location", "दिल्ली", "quote_is_question"),
        ("अगर मैं मुंबई चला गया, तो मुझे नई नौकरी ढूँढनी होगी।", "home_location", "मुंबई", "quote_is_hypothetical"),
        ("मेरी बहन जयपुर में रहती है।", "home_location", "जयपुर", "quote_about_other_person"),
        ("बहुत बहुत धन्यवाद!", "opinion:service", "likes", "quote_is_pleasantry"),
        ("मैं इसके बारे में सोचूँगा।", "decision:सालाना_प्लान", "सालाना प्लान", "quote_is_undecided"),
        ("मैं अपने पति के साथ पुणे में रहती हूँ।", "home_location", "पुणे", None),
        ("मेरा नाम राहुल है।", "name", "राहुल", None),
        ("मैं शिक्षक के रूप में काम करता हूँ।", "job", "शिक्षक", None),
    ],
    "th": [
        ("ร้านกาแฟที่ดีที่สุดในเชียงใหม่อยู่ที่ไหน?", "home_location", "เชียงใหม่", "quote_is_question"),
        ("ถ้าฉันย้ายไปภูเก็ต ฉันจะเปิดร้านอาหาร", "home_location", "ภูเก็ต", "quote_is_hypothetical"),
        ("พี่สาวของฉันอยู่ที่ขอนแก่น", "home_location", "ขอนแก่น", "quote_about_other_person"),
        ("ขอบคุณมากครับ", "opinion:service", "likes", "quote_is_pleasantry"),
        ("ขอคิดดูก่อนนะครับ", "decision:แพ็กเกจรายปี", "แพ็กเกจรายปี", "quote_is_undecided"),
        ("ผมอยู่กับแม่ของผมที่เชียงใหม่", "home_location", "เชียงใหม่", None),
        ("ฉันชื่อสมชาย", "name", "สมชาย", None),
        ("ผมทำงานเป็นครู", "job", "ครู", None),
    ],
}


@pytest.mark.parametrize("code,quote,attribute,value,reason",
                         [(code, *case) for code, cases in CASES.items() for case in cases])
def test_the_gates_read_a_language_added_as_data(code, quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason
    normalised = unicodedata.normalize("NFKC", quote)  # as the pipeline gives it (Thai "ำ" becomes two signs)
    assert gate(normalised, normalised, attribute, value and unicodedata.normalize("NFKC", value), False) == reason


def test_a_norwegian_line_is_identified_as_bokmal_and_read_with_danish():
    assert identify("Hvis jeg flytter til Tromsø, må jeg kjøpe nye vintersko.") == "nb"
    assert {"nb", "da", "en"} <= codes_for("nb") and "nb" in codes_for("da")


def test_a_lower_case_i_that_means_in_is_no_first_person():
    # English words are read beside every language's: "i" is "in" in Swedish, not "I".
    assert gate("Min syster bor i Stockholm.", "Min syster bor i Stockholm.", "home_location", "Stockholm",
                False) == "quote_about_other_person"
    assert gate("my wife and i love sushi", "my wife and i love sushi", "opinion:sushi", "likes", False) is None


@pytest.mark.parametrize("quote,attribute,value,reason", [
    ("Gdybym przeprowadził się do Gdańska, kupiłbym rower.", "home_location", "Gdańska", "quote_is_hypothetical"),
    ("A gdybyśmy zamieszkali w Poznaniu, dzieci miałyby bliżej do szkoły.", "home_location", "Poznaniu",
     "quote_is_hypothetical"),
    ("Bisa bantu aku cari hotel murah di Bali?", "home_location", "Bali", "quote_is_question"),  # Indonesian
    ("Tolong carikan restoran enak di Bandung?", "home_location", "Bandung", "quote_is_question"),
    ("Bisa panggil aku Budi mulai sekarang?", "preferred_name", "Budi", None),  # a standing request asks nothing
    ("Kakakku tinggal di Medan.", "home_location", "Medan", "quote_about_other_person"),
])
def test_polish_and_indonesian_words_read_the_forms_people_write(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason
